// The SPIR-V 2D block built-ins the test kernels call (llc-22 lowers them to the instructions).
#define OVL __attribute__((overloadable))
void OVL __spirv_Subgroup2DBlockLoadINTEL(int, int, int, int, const __global void *, int, int, int,
                                          int2, __private void *);
void OVL __spirv_Subgroup2DBlockLoadTransformINTEL(int, int, int, int, const __global void *, int,
                                                   int, int, int2, __private void *);
void OVL __spirv_Subgroup2DBlockLoadTransposeINTEL(int, int, int, int, const __global void *, int,
                                                   int, int, int2, __private void *);
void OVL __spirv_Subgroup2DBlockPrefetchINTEL(int, int, int, int, const __global void *, int, int,
                                              int, int2);
#define SG16 __attribute__((intel_reqd_sub_group_size(16)))
