/* A random element of the precision's type T (prec.h set), each part from
 * t_rand (complex: real and imaginary parts drawn in this order). For the
 * precision templates: included once per precision, no include guard. */
static T PN(rand_elem)(unsigned long long *s) {
#if IS_CPLX
    double re = t_rand(s), im = t_rand(s);
    return (T)(re + im * I);
#else
    return (T)t_rand(s);
#endif
}
