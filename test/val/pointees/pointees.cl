// The private pointer types the OpenCL C 2D block built-ins use (cl_intel_subgroup_2d_block_io:
// `private ushort *` for 8-bit rows 32 wide, `private uint *` for 32-bit and transformed data),
// passed to the __spirv_* forms of the SPV_INTEL_2d_block_io instructions, a few pointees the
// extension forbids for LoadTransform, and Intel block IO through an 8-bit pointee. DECISIONS 12
// (revised) gives each kernel's verdict: see expect.json. build.sh compiles each kernel
// (-DKERNEL_<name>) into <name>.spv with clang-22 + llc-22, which turn the calls into the
// instructions, and the Intel block IO kernels also with clang-15 + llvm-spirv-15.
#define OVL __attribute__((overloadable))
#define SG __attribute__((intel_reqd_sub_group_size(16)))
#define COORD (int2)(get_group_id(0) * 32, get_group_id(1) * 8)

void OVL __spirv_Subgroup2DBlockLoadINTEL(int, int, int, int, const __global void *, int, int, int,
                                          int2, __private ushort *);
void OVL __spirv_Subgroup2DBlockLoadINTEL(int, int, int, int, const __global void *, int, int, int,
                                          int2, __private uchar *);
void OVL __spirv_Subgroup2DBlockLoadINTEL(int, int, int, int, const __global void *, int, int, int,
                                          int2, __private uint *);
void OVL __spirv_Subgroup2DBlockLoadTransformINTEL(int, int, int, int, const __global void *, int,
                                                   int, int, int2, __private uint *);
void OVL __spirv_Subgroup2DBlockLoadTransformINTEL(int, int, int, int, const __global void *, int,
                                                   int, int, int2, __private int8 *);
void OVL __spirv_Subgroup2DBlockLoadTransformINTEL(int, int, int, int, const __global void *, int,
                                                   int, int, int2, __private float *);
void OVL __spirv_Subgroup2DBlockLoadTransformINTEL(int, int, int, int, const __global void *, int,
                                                   int, int, int2, __private ushort *);
void OVL __spirv_Subgroup2DBlockLoadTransposeINTEL(int, int, int, int, const __global void *, int,
                                                   int, int, int2, __private ushort *);
void OVL __spirv_Subgroup2DBlockStoreINTEL(int, int, int, int, __private const float *,
                                           __global void *, int, int, int, int2);
void OVL __spirv_Subgroup2DBlockStoreINTEL(int, int, int, int, __private const uchar *,
                                           __global void *, int, int, int, int2);
uint OVL __spirv_SubgroupBlockReadINTEL(const __global uchar *);
uint OVL __spirv_SubgroupBlockReadINTEL(const __global ushort *);
void OVL __spirv_SubgroupBlockWriteINTEL(__global uchar *, uint);

// 8-bit, 32 wide, 8 rows: what intel_sub_group_2d_block_read_8b_8r32x1c passes (ushort *).
#ifdef KERNEL_load_8b_32w_ushort
SG __kernel void load_8b_32w_ushort(__global const uchar *base, int w, int h, int p,
                                    __global uint *out) {
  ushort dst[8];
  __spirv_Subgroup2DBlockLoadINTEL(1, 32, 8, 1, base, w, h, p, COORD, dst);
  out[get_global_id(0)] = dst[0] + dst[7];
}
#endif

#ifdef KERNEL_load_8b_32w_uchar
SG __kernel void load_8b_32w_uchar(__global const uchar *base, int w, int h, int p,
                                   __global uint *out) {
  uchar dst[16];
  __spirv_Subgroup2DBlockLoadINTEL(1, 32, 8, 1, base, w, h, p, COORD, dst);
  out[get_global_id(0)] = dst[0] + dst[15];
}
#endif

#ifdef KERNEL_load_8b_32w_uint
SG __kernel void load_8b_32w_uint(__global const uchar *base, int w, int h, int p,
                                  __global uint *out) {
  uint dst[4];
  __spirv_Subgroup2DBlockLoadINTEL(1, 32, 8, 1, base, w, h, p, COORD, dst);
  out[get_global_id(0)] = dst[0] + dst[3];
}
#endif

// 8-bit LoadTransform, 16 wide, 32 rows: the built-in passes uint *.
#ifdef KERNEL_transform_8b_uint
SG __kernel void transform_8b_uint(__global const uchar *base, int w, int h, int p,
                                   __global uint *out) {
  uint dst[8];
  __spirv_Subgroup2DBlockLoadTransformINTEL(1, 16, 32, 1, base, w, h, p, COORD, dst);
  out[get_global_id(0)] = dst[0] + dst[7];
}
#endif

// What a GEMM written with int8 vectors passes: LLVM's backend types the pointer as int8.
#ifdef KERNEL_transform_8b_int8
SG __kernel void transform_8b_int8(__global const uchar *base, int w, int h, int p,
                                   __global int8 *out) {
  int8 dst[1];
  __spirv_Subgroup2DBlockLoadTransformINTEL(1, 16, 32, 1, base, w, h, p, COORD, dst);
  out[get_global_id(0)] = dst[0];
}
#endif

// LoadTransform into float * or ushort *: the extension requires 32-bit integers.
#ifdef KERNEL_transform_16b_float
SG __kernel void transform_16b_float(__global const uchar *base, int w, int h, int p,
                                     __global float *out) {
  float dst[8];
  __spirv_Subgroup2DBlockLoadTransformINTEL(2, 16, 16, 1, base, w, h, p, COORD, dst);
  out[get_global_id(0)] = dst[0] + dst[7];
}
#endif

#ifdef KERNEL_transform_16b_ushort
SG __kernel void transform_16b_ushort(__global const uchar *base, int w, int h, int p,
                                      __global uint *out) {
  ushort dst[16];
  __spirv_Subgroup2DBlockLoadTransformINTEL(2, 16, 16, 1, base, w, h, p, COORD, dst);
  out[get_global_id(0)] = dst[0] + dst[15];
}
#endif

// 32-bit LoadTranspose into ushort *: no pointee rule for a transposed load either.
#ifdef KERNEL_transpose_32b_ushort
SG __kernel void transpose_32b_ushort(__global const uchar *base, int w, int h, int p,
                                      __global uint *out) {
  ushort dst[16];
  __spirv_Subgroup2DBlockLoadTransposeINTEL(4, 8, 16, 1, base, w, h, p, COORD, dst);
  out[get_global_id(0)] = dst[0] + dst[15];
}
#endif

// Stores of 32-bit elements from float data and from bytes.
#ifdef KERNEL_store_32b_float
SG __kernel void store_32b_float(__global const float *in, __global uchar *base, int w, int h,
                                 int p) {
  float src[8];
  for (int i = 0; i < 8; ++i) src[i] = in[get_global_id(0) * 8 + i];
  __spirv_Subgroup2DBlockStoreINTEL(4, 16, 8, 1, src, base, w, h, p, COORD);
}
#endif

#ifdef KERNEL_store_32b_uchar
SG __kernel void store_32b_uchar(__global const uchar *in, __global uchar *base, int w, int h,
                                 int p) {
  uchar src[32];
  for (int i = 0; i < 32; ++i) src[i] = in[get_global_id(0) * 32 + i];
  __spirv_Subgroup2DBlockStoreINTEL(4, 16, 8, 1, src, base, w, h, p, COORD);
}
#endif

// OpSubgroupBlockRead/WriteINTEL of uint data through an 8-bit pointee: read as untyped.
#ifdef KERNEL_block_io_uint_via_uchar
SG __kernel void block_io_uint_via_uchar(__global const uchar *in, __global uchar *out) {
  uint v = __spirv_SubgroupBlockReadINTEL(in);
  __spirv_SubgroupBlockWriteINTEL(out, v + 1);
}
#endif

// Any other pointee must be the data's component type.
#ifdef KERNEL_block_read_uint_via_ushort
SG __kernel void block_read_uint_via_ushort(__global const ushort *in, __global uint *out) {
  out[get_global_id(0)] = __spirv_SubgroupBlockReadINTEL(in);
}
#endif
