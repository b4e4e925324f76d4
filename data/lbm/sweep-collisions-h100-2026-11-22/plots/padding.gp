set terminal svg size 1000,650 dynamic background rgb 'white' noenhanced
set output 'data/lbm/sweep-collisions-h100-2026-11-22/plots/padding.svg'
set xlabel 'pad (elements per x row)'
set ylabel 'MFLUP/s'
set logscale y
set key outside right
set title 'MFLUP/s against padding (dashed: the ceiling of each series)'
plot  'data/lbm/sweep-collisions-h100-2026-11-22/plots/padding.dat' index 0 using 1:2 with linespoints title 'cpu sp pull bgk align 0', '' index 0 using 1:3 with lines dashtype 2 notitle, \
     'data/lbm/sweep-collisions-h100-2026-11-22/plots/padding.dat' index 1 using 1:2 with linespoints title 'cpu sp pull_nt bgk align 0', '' index 1 using 1:3 with lines dashtype 2 notitle, \
     'data/lbm/sweep-collisions-h100-2026-11-22/plots/padding.dat' index 2 using 1:2 with linespoints title 'cpu dp pull bgk align 0', '' index 2 using 1:3 with lines dashtype 2 notitle, \
     'data/lbm/sweep-collisions-h100-2026-11-22/plots/padding.dat' index 3 using 1:2 with linespoints title 'cpu dp pull_nt bgk align 0', '' index 3 using 1:3 with lines dashtype 2 notitle, \
     'data/lbm/sweep-collisions-h100-2026-11-22/plots/padding.dat' index 4 using 1:2 with linespoints title 'gpu sp pull bgk align 0', '' index 4 using 1:3 with lines dashtype 2 notitle, \
     'data/lbm/sweep-collisions-h100-2026-11-22/plots/padding.dat' index 5 using 1:2 with linespoints title 'gpu dp pull bgk align 0', '' index 5 using 1:3 with lines dashtype 2 notitle
