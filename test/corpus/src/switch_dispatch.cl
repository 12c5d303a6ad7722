// corpus: producers=llc22,spirv15 std=CL2.0 class=portable skip=spirv15.O2
// switch statements: dense and sparse case values, fall-through, default in the
// middle and a nested switch, used as a tiny bytecode interpreter (unsigned
// arithmetic, so every input is well defined).
// spirv15 O2 skipped: clang-15 -O2 narrows `switch (op & 7)` to an i3 switch and
// llvm-spirv-15 aborts with "InvalidBitWidth: Invalid bit width in input: 3".

static uint step(int op, uint acc, uint arg)
{
    switch (op & 7) {
    case 0: return acc + arg;
    case 1: return acc - arg;
    case 2: acc *= 2;           /* fall through */
    case 3: return acc + 1;
    default: return acc ^ arg;
    case 5:
        switch (arg & 3) {
        case 0: return acc << 1;
        case 1: return acc >> 1;
        default: return ~acc;
        }
    case 6: return acc & arg;
    }
}

__kernel void switch_dispatch(__global const int *ops, __global const int *args,
                              __global int *out, int nops)
{
    int i = get_global_id(0);
    uint acc = (uint)i;
    for (int k = 0; k < nops; ++k)
        acc = step(ops[(i + k) % nops], acc, (uint)args[k]);
    int cls;
    switch ((int)acc) {
    case -1: cls = 100; break;
    case 0: cls = 200; break;
    case 1000: cls = 300; break;
    case 65536: cls = 400; break;
    default: cls = (int)(acc & 0xffu); break;
    }
    out[2 * i] = (int)acc;
    out[2 * i + 1] = cls;
}
