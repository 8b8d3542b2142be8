# Captures of gqa_repeat_kv.py on the GPU machine: nsys kernel summary, and ncu on the KV-head copy (run from the repo root; $OUT is where the files go).
set -x
mkdir -p /tmp/dw && for f in .nsysdeps/*.deb; do dpkg -x $f /tmp/dw; done; export LD_LIBRARY_PATH=/tmp/dw/usr/lib/x86_64-linux-gnu
NSYS=/opt/nvidia/nsight-compute/2025.3.1/host/target-linux-x64/nsys
W=python/workloads/gqa_repeat_kv.py
cd $OUT
python3 /dev/stdin <<'P'
import torch; print(torch.__version__, torch.cuda.get_device_name())
P
cd - >/dev/null
$NSYS profile --sample=none --cpuctxsw=none --trace=cuda --capture-range=cudaProfilerApi --capture-range-end=stop -f true -o $OUT/gqa python3 $W > $OUT/gqa.nsys.stdout 2>&1
$NSYS stats --report cuda_gpu_kern_sum --format csv -o $OUT/gqa $OUT/gqa.nsys-rep > $OUT/gqa.stats.stdout 2>&1
ls $OUT
# the product's filter for the copy (from the nsys name), and the old one that matched nothing
ncu --clock-control none --kernel-name-base demangled --kernel-name 'regex:(^|[^A-Za-z0-9_])elementwise_kernel<.*direct_copy_kernel_cuda' --launch-skip 20 --launch-count 1 --section SpeedOfLight --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis --section WarpStateStats --csv --page details --log-file $OUT/gqa_copy.ncu.csv python3 $W > $OUT/gqa_copy.ncu.stdout 2>&1
ncu --clock-control none --kernel-name-base demangled --kernel-name 'regex:at::native::elementwise_kernel' --launch-skip 20 --launch-count 1 --section SpeedOfLight --csv --page details --log-file $OUT/gqa_old_filter.ncu.csv python3 $W > $OUT/gqa_old_filter.ncu.stdout 2>&1
# raw page of the same launch for the memory levels
ncu --clock-control none --kernel-name-base demangled --kernel-name 'regex:(^|[^A-Za-z0-9_])elementwise_kernel<.*direct_copy_kernel_cuda' --launch-skip 20 --launch-count 1 --section SpeedOfLight --section SourceCounters --section MemoryWorkloadAnalysis_Tables --csv --page details --print-details all --log-file $OUT/gqa_copy_sources.ncu.csv python3 $W > $OUT/gqa_copy_sources.ncu.stdout 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/smi.txt
ncu --version > $OUT/ncu_version.txt
wc -c $OUT/*
head -c 600 $OUT/gqa_cuda_gpu_kern_sum.csv
