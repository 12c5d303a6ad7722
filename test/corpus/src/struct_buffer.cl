// corpus: producers=llc22,spirv15 std=CL2.0 class=portable
// Structs as buffer elements: mixed-size members with padding, nested struct,
// array member, reading and writing individual fields and whole-struct copies.

typedef struct {
    uchar tag;
    short delta;
    int value;
} Entry;

typedef struct {
    Entry e;
    int hist[4];
    long total;
    float2 pos;
} Record;

__kernel void struct_buffer(__global const Record *in, __global Record *out,
                            __global int *tags)
{
    size_t i = get_global_id(0);
    Record r = in[i];
    r.e.value += r.e.delta;
    r.total = 0;
    for (int k = 0; k < 4; ++k) {
        r.hist[k] = r.hist[3 - k] + k;
        r.total += r.hist[k];
    }
    r.pos = r.pos.yx + (float2)(1.0f, -1.0f);
    out[i] = r;
    tags[i] = r.e.tag + (int)sizeof(Record);
}
