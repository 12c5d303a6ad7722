// ub: producer=spirv15 opt=O2
// arith.division-by-zero: out[i] = num / (i - bad) (OpSDiv); work-item `bad` divides by zero.
// bad = -1: every divisor is at least 1.
// arith.division-overflow: num = INT_MIN, bad = 32 with 32 work-items makes work-item 31 divide
// INT_MIN by -1; with bad = -1 it divides by 32 instead (clean).
kernel void division_by_zero(global int *out, int num, int bad) {
  int gid = get_global_id(0);
  out[gid] = num / (gid - bad);
}
