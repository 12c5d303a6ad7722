// ub: producer=llc22 opt=O2
// A 2D block load (Element Size 2, 16 x 8, one block) whose Coordinate is
// (int2)(x, group * 8 + lane * step), which the producer builds by inserting both components
// into an undefined vector:
//   subgroup.non-uniform: step != 0 (lane 1 passes a different Coordinate than lane 0)
// step = 0: clean. The loader proves such a coordinate uniform only when every component it
// inserts is; a lane's component must leave the check to run time.
#define OVL __attribute__((overloadable))
void OVL __spirv_Subgroup2DBlockLoadINTEL(int, int, int, int, const __global void *, int, int,
                                          int, int2, __private void *);

__attribute__((intel_reqd_sub_group_size(16)))
kernel void block2d_coordinate(global const ushort *in, global uint *out, int width, int height,
                               int pitch, int x, int step) {
  ushort dst[8];
  int y = (int)get_group_id(0) * 8 + (int)get_sub_group_local_id() * step;
  __spirv_Subgroup2DBlockLoadINTEL(2, 16, 8, 1, in, width, height, pitch, (int2)(x, y), dst);
  out[get_global_id(0)] = (uint)dst[0] + (uint)dst[7];
}
