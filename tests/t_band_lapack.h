/* LAPACKE references of the band tests for the current precision (after
 * base/prec.h): LSTERF, the real type's sterf, and LBEV, the band
 * eigensolver (?sbev / ?hbev). Included again for each precision, so no
 * include guard. */
#undef LSTERF
#undef LBEV
#if defined(HYLA_PREC_S)
#define LSTERF LAPACKE_ssterf
#define LBEV LAPACKE_ssbev
#elif defined(HYLA_PREC_D)
#define LSTERF LAPACKE_dsterf
#define LBEV LAPACKE_dsbev
#elif defined(HYLA_PREC_C)
#define LSTERF LAPACKE_ssterf
#define LBEV LAPACKE_chbev
#else
#define LSTERF LAPACKE_dsterf
#define LBEV LAPACKE_zhbev
#endif
