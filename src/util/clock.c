/* The monotonic clock (clock.h). */
#include <time.h>

#include "cetune/clock.h"

double cet_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
