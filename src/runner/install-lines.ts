/** The exact line to install each tool the run can use, shown wherever the tool is missing. */
export const INSTALL = {
  max: 'pip install modular (MAX ships in the modular package; see docs.modular.com for conda/pixi)',
  nsys: 'apt-get install -y nsight-systems-cli (from NVIDIA\'s devtools apt repository), or put an installed nsys on PATH',
  ncu: 'apt-get install -y cuda-nsight-compute-<cuda major>-<minor> (ships with the CUDA toolkit, also as /usr/local/cuda/bin/ncu)',
  rocprofv3: 'apt-get install -y rocprofiler-sdk (ROCm 6.2 or newer)',
  libdw: 'apt-get install -y libdw1 (nsys stats needs libdw.so.1)',
} as const;
