# For tests/mpi/*.sh: mpirun as root (this machine's CI) on few cores.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Quiet in containers without a high-speed network.
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
MPIRUN_OPTS="--oversubscribe --bind-to none"
