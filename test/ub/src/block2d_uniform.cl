// ub: producer=llc22 opt=O2
// A 2D block load (Element Size 2, 16 x 8, one block) whose Memory Width is width + lane * step:
//   subgroup.non-uniform: step != 0 (lane 1 passes a different Memory Width than lane 0)
// step = 0: clean. Every other operand comes from kernel arguments and the work-group id, which
// the loader proves uniform, so only the width is compared lane by lane.
#define OVL __attribute__((overloadable))
void OVL __spirv_Subgroup2DBlockLoadINTEL(int, int, int, int, const __global void *, int, int,
                                          int, int2, __private void *);

__attribute__((intel_reqd_sub_group_size(16)))
kernel void block2d_uniform(global const ushort *in, global uint *out, int width, int height,
                            int pitch, int step) {
  ushort dst[8];
  int lane_width = width + (int)get_sub_group_local_id() * step;
  __spirv_Subgroup2DBlockLoadINTEL(2, 16, 8, 1, in, lane_width, height, pitch,
                                   (int2)(0, (int)get_group_id(0) * 8), dst);
  out[get_global_id(0)] = (uint)dst[0] + (uint)dst[7];
}
