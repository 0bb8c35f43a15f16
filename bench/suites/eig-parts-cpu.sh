# The generalized problem and a part of the spectrum on one host device (no
# GPU), against LAPACKE on the same OpenBLAS in the same run (sygvd against
# ?sygvd; syevdx against ?syevr with the same range), and the full
# eigensolver on the same orders as the yardstick: the lowest tenth with
# vectors costs a fraction of all of them.
hyla syevd -n 1000,2000 --type d --jobz V --check --vs vendor --devices cpu --repeat 3
hyla syevdx -n 1000,2000 --type d --range I:1:100 --jobz V --check --vs vendor --devices cpu --repeat 3
hyla syevdx -n 2000 --type d --range I:1:200 --jobz V --check --vs vendor --devices cpu --repeat 3
hyla sygvd -n 1000,2000 --type d --itype 1 --jobz V --check --vs vendor --devices cpu --repeat 3
hyla hegvd -n 1000 --type z --itype 1 --jobz V --check --vs vendor --devices cpu --repeat 3
# the host target (dsygvd and dsyevx at n = 4000 at least LAPACKE's
# speed on the same OpenBLAS), and a complex tenth (the two-stage part path;
# the real types take LAPACK's ?syevr through the host backend's heevr op)
hyla sygvd -n 4000 --type d --itype 1 --jobz V --vs vendor --devices cpu --repeat 1
hyla syevdx -n 4000 --type d --range I:1:400 --jobz V --vs vendor --devices cpu --repeat 1
hyla syevdx -n 2000 --type z --range I:1:200 --jobz V --check --vs vendor --devices cpu --repeat 3
