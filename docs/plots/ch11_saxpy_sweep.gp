# Listing 11.3 for SAXPY on device memory: GB/s against threads per block for a few unroll
# factors of the three kernel forms, with the device copy of the same bytes as the reference line.
# From docs/results/ch11_saxpy_sweep.csv: columns 3..8 hold 32..1024 threads per block; the
# copy row's name holds a comma, so its "best GB/s" is read from the end of the line.
set terminal svg size 900,420 font "Helvetica,12" background rgb "white"
set output out
set xlabel "threads per block"
set ylabel "GB/s (12 bytes per element)"
set logscale x 2
set xrange [28:1200]
set grid
set key outside right noenhanced
file = results.'/ch11_saxpy_sweep.csv'
row(id) = sprintf("< awk -F, '$1==\"%s\" {for (c = 3; c <= 8; c++) print 2^(c+2), $c}' %s", id, file)
copy = real(system(sprintf("awk -F, '$1==\"copy\" {print $(NF-3)}' %s", file)))
ids = "unrolled_1 unrolled_4 unrolled_16 grid_stride_1 grid_stride_16 vectorized_1 vectorized_8"
set arrow from graph 0, first copy to graph 1, first copy nohead dt 2 lw 2 lc rgb "black"
set label sprintf("device copy of the same bytes: %.0f GB/s", copy) at graph 0.02, first copy offset 0,0.8
set yrange [*:copy * 1.04]
plot for [id in ids] row(id) using 1:2 with linespoints title id
