/* A libhyla_cuda.so of another build, for tests/backends_shared.c: its
 * entry refuses the loader's services, as a plugin whose layouts differ
 * from the loading library's does. */
__attribute__((visibility("default"))) int hyla_cuda_plugin_init(const void *core, void *out);
int hyla_cuda_plugin_init(const void *core, void *out) {
    (void)core, (void)out;
    return -1;
}
