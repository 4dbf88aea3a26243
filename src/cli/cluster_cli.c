/* The process's MPI cluster, as the commands see it.  main.c sets it up and
 * the commands that spread work read it here, so that no command depends on
 * main.c (which calls into them). */
#include "cli.h"

#ifdef CETUNE_MPI
#include "cluster.h"

static struct cet_cluster *cluster;
static struct cet_backend backend;

void cli_cluster_set(struct cet_cluster *cl)
{
    cluster = cl;
    cet_cluster_backend(cl, &backend);
}

struct cet_cluster *cli_cluster_get(void)
{
    return cluster;
}

const struct cet_backend *cli_backend(void)
{
    return &backend;
}
#else
const struct cet_backend *cli_backend(void)
{
    return NULL;
}
#endif
