set terminal svg size 900,600 dynamic background rgb 'white' noenhanced
set output 'data/lbm/padding-h100-2026-11-22/plots/roofline.svg'
set logscale xy
set xtics (152, 228, 304, 456)
set xlabel 'modelled DRAM bytes per fluid-cell update'
set ylabel 'MFLUP/s'
set key top right
set xrange [120:560]
set title 'LBM against the copy bandwidth roof (ceiling = bandwidth / bytes)'
plot 'data/lbm/padding-h100-2026-11-22/plots/roofline.dat' index 0 using 1:2 with points pt 7 title 'LBM rows', \
    3020.61*1e3/x title 'roof: NVIDIA H100 80GB HBM3 gpu sp copy 3021 GB/s', \
    3018.03*1e3/x title 'roof: NVIDIA H100 80GB HBM3 gpu dp copy 3018 GB/s', \
    117.086*1e3/x title 'roof: Intel(R) Xeon(R) Processor cpu sp copy 117 GB/s'
