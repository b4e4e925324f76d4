set terminal svg size 900,600 dynamic background rgb 'white' noenhanced
set output 'data/lbm/sweep-collisions-h100-2026-11-22/plots/roofline.svg'
set logscale xy
set xtics (152, 228, 304, 456)
set xlabel 'modelled DRAM bytes per fluid-cell update'
set ylabel 'MFLUP/s'
set key top right
set xrange [120:560]
set title 'LBM against the copy bandwidth roof (ceiling = bandwidth / bytes)'
plot 'data/lbm/sweep-collisions-h100-2026-11-22/plots/roofline.dat' index 0 using 1:2 with points pt 7 title 'LBM rows', \
    100.849*1e3/x title 'roof: Intel(R) Xeon(R) Processor cpu sp copy 101 GB/s', \
    112.058*1e3/x title 'roof: Intel(R) Xeon(R) Processor cpu dp copy 112 GB/s', \
    3005.19*1e3/x title 'roof: NVIDIA H100 80GB HBM3 gpu sp copy 3005 GB/s', \
    3009.64*1e3/x title 'roof: NVIDIA H100 80GB HBM3 gpu dp copy 3010 GB/s'
