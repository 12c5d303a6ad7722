// ub: producer=spirv15 opt=O2
// memory.null: work-item `bad` stores through a null pointer instead of its own element of `out`
// (bad = -1: nobody does).
kernel void null_pointer(global int *out, int bad) {
  int gid = get_global_id(0);
  global int *p = gid == bad ? (global int *)0 : out + gid;
  *p = gid;
}
