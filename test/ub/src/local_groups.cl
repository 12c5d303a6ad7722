// ub: producer=spirv15 opt=O2
// memory.local-race across work-groups: local memory belongs to one work-group, so what one
// work-group did to it never races with the next one's accesses (a race shadow left over from
// the previous work-group would say otherwise). Work-group 0 writes tmp[lid]; the others read
// tmp[lid ^ 1] as their first access (an undefined value, but no race).
//   mode 0: clean
//   mode 1: work-groups after the first also write tmp[lid] first -> race inside the work-group
kernel void local_groups(global int *out, int mode) {
  local int tmp[64];
  int lid = get_local_id(0);
  if (get_group_id(0) == 0) {
    tmp[lid] = lid;
    out[get_global_id(0)] = 0;
    return;
  }
  if (mode == 1)
    tmp[lid] = lid;
  out[get_global_id(0)] = tmp[lid ^ 1];
}
