#!/usr/bin/env python3
# s23-sass.py SASS_DUMP...: opcode counts of the fp16c / fp16s pull and aa kernels in cuobjdump -sass dumps
import re, sys, subprocess, collections
want = re.compile(r'(pull_kernel|pull_pairs_kernel|aa_kernel|aa_pairs_kernel)<gpu_fp16[cs], 0, 0, \(gpu_lbm_variant\)(0|5|6|8|9)>')
for fn in sys.argv[1:]:
    funcs = {}; cur = None
    for line in open(fn):
        m = re.match(r'\s+Function : (\S+)', line)
        if m:
            name = subprocess.run(['c++filt', m.group(1)], capture_output=True, text=True).stdout.strip()
            cur = name if want.search(name) else None
            if cur: funcs[cur] = collections.Counter()
            continue
        if cur:
            m = re.match(r'\s+/\*[0-9a-f]{4}\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)', line)
            if m:
                op = m.group(2)
                if op in ('NOP',): continue
                funcs[cur][op.split('.')[0]] += 1
    pipe_alu = {'LOP3','SHF','IADD3','ISETP','SEL','FSEL','FSETP','FMNMX','IMNMX','PRMT','LEA','FLO','POPC','BMSK','SGXT','PLOP3','VIMNMX','LEA'}
    pipe_fma = {'FADD','FMUL','FFMA','IMAD','IMUL','IADD'}
    print('==', fn)
    for name, c in sorted(funcs.items()):
        tot = sum(c.values()); alu = sum(v for k, v in c.items() if k in pipe_alu); fma = sum(v for k, v in c.items() if k in pipe_fma)
        print(f'{tot:5d} static, alu {alu:4d} fma {fma:4d} | {name[:80]}')
        print('      ', ' '.join(f'{k}:{v}' for k, v in c.most_common(22)))
