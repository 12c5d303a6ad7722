// ub: producer=spirv15 opt=O2
// memory.read-only, must not fire: a kernel may modify its by-value struct parameter (it is the
// kernel's own copy), but the producers pass it as a pointer to the argument's bytes, so the
// write lands in the argument buffer. `s` needs 20 bytes; the kernel is clean for every argument.
struct pair_table {
  int scale;
  int v[4];
};
kernel void byval_write(global int *out, struct pair_table s, int i) {
  s.v[i & 3] += s.scale;
  out[get_global_id(0)] = s.v[0] + s.v[1] + s.v[2] + s.v[3];
}
