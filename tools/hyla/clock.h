/* The tester's clock: wall time and the median of timed runs. Depends on
 * nothing else of the tester. */
#ifndef HYLA_CLI_CLOCK_H
#define HYLA_CLI_CLOCK_H

/* Monotonic wall clock in seconds. */
double cli_now(void);
/* Median of v[0..n-1] (n >= 1); reorders v. */
double cli_median(double *v, int n);

#endif
