// ub: producer=spirv15 opt=O0
// control.call-depth: depth(n) calls itself n times (OpenCL C forbids recursion, but producers
// and the validator let it through); calls nested deeper than 256 are reported and the
// subgroup stops, since xmx-run's call stack has to end somewhere. n = 10: clean. At -O0 so
// the recursion stays a recursion.
int depth(int n) { return n <= 0 ? 0 : 1 + depth(n - 1); }

kernel void call_depth(global int *out, int n) { out[get_global_id(0)] = depth(n); }
