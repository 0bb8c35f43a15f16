# The single-GPU core set on one H100, each against the vendor in the same run:
# the eigensolver with and without eigenvectors, Cholesky and LU. Rerun on two
# builds side by side to see that a change left the speed alone.
hyla syevd -n 16384 --type d --jobz V --vs vendor --repeat 3
hyla syevd -n 16384 --type d --jobz N --vs vendor --repeat 3
hyla potrf -n 16384,32768 --type d --vs vendor --repeat 3
hyla getrf -n 16384,32768 --type d --vs vendor --repeat 3
