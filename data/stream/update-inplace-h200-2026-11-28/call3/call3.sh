# session 28, call 3 (the H200 machine of calls 1 and 2, warm; call 1's build in /tmp/bnew): the
# command line as it ran, one line in the device call, here broken for reading
O=$OUT/r; mkdir -p $O
for tool in memcheck initcheck; do for acc in wide scalar; do for bl in "--blocks 7" ""; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 /tmp/bnew/stream-gpu --kernel update \
    --size 1M,3M --precision sp,dp --reps 2 --warmup 1 --ilp 1,4 $bl --read-offset 0,1 \
    --access $acc >> $O/san-$tool.csv 2>> $O/san-$tool.txt
  echo "sanitizer $tool $acc '$bl' rc=$? $(grep -c ',pass,' $O/san-$tool.csv) pass rows so far; $(grep -E 'ERROR SUMMARY' $O/san-$tool.txt | tail -1)"
done; done; done | tee $O/san.txt
cp .peers/s28/call2.sh $O/ 2>/dev/null; cd $OUT && tar czf r.tgz r && rm -rf r
