/* The run directory's files and its lock (rundir.h).
 *
 * The lock is flock(2) on DIR/run.lock: the kernel releases it when the
 * process ends in any way (SIGKILL included), so a stale lock file never
 * blocks a later run or --resume.  The file stays: removing a lock file
 * that another process may have opened would let two processes hold "the"
 * lock.  Its content, the holder's PID, is only for the message. */
#include "cetune/rundir.h"
#include "run_internal.h"

#include "cetune/buf.h"
#include "../util/json.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

const char *const cet_run_files[] = {
    CET_RUN_INFO, CET_RUN_GENERATIONS, CET_RUN_INDIVIDUALS, CET_RUN_TOP, CET_RUN_BEST, CET_RUN_SITE,
    CET_RUN_SAMPLE, CET_RUN_HOLDOUT, CET_RUN_CHECKPOINT, CET_RUN_VALIDATION,
    CET_RUN_REPORT, CET_RUN_REPORT_GP, CET_RUN_REPORT_GENERATIONS, CET_RUN_REPORT_EXPLORED,
    CET_RUN_REPORT_POPULATION, CET_RUN_REPORT_PARETO, CET_RUN_PLOT_CONVERGENCE, CET_RUN_PLOT_EXPLORED,
    "explored-*-*.png" /* CET_RUN_PLOT_PAIR */, CET_RUN_PLOT_DISTRIBUTION, CET_RUN_PARETO,
    CET_RUN_PLOT_PARETO, CET_RUN_FOLDS, CET_RUN_HELDOUT_PAGES, NULL};
const char *const cet_run_dirs[] = {CET_RUN_PARETO_DIR, NULL};

char *cet_run_path(const char *dir, const char *name)
{
    struct cet_buf b = {0};
    if (cet_buf_printf(&b, "%s/%s", dir, name)) {
        cet_buf_free(&b);
        return NULL;
    }
    return b.p;
}

int cet_run_write_file(const char *dir, const char *name, const char *data, size_t len,
                       struct cet_error *err)
{
    char *path = cet_run_path(dir, name);
    if (!path)
        return cet_fail(err, "%s/%s: out of memory", dir, name);
    int rc = cet_write_atomic(path, data ? data : "", len, err);
    free(path);
    return rc;
}

int cet_run_corpora(char ***dirs, size_t *n, const char *dir, struct cet_error *err)
{
    struct cet_json j = {0};
    char *path = cet_run_path(dir, CET_RUN_INFO);
    int rc = 0;
    *dirs = NULL;
    *n = 0;
    if (!path)
        return cet_fail(err, "out of memory");
    if (access(path, F_OK) == 0 && (rc = cet_json_load(&j, path, err)) == 0) {
        static const char *const keys[] = {"corpus", "validate"};
        for (size_t k = 0; k < 2 && !rc; k++) {
            const cJSON *a = cJSON_GetObjectItemCaseSensitive(j.root, keys[k]), *it;
            cJSON_ArrayForEach(it, a) {
                char **v = cJSON_IsString(it) ? realloc(*dirs, (*n + 1) * sizeof *v) : *dirs;
                if (!cJSON_IsString(it))
                    continue;
                if (!v || !(v[*n] = strdup(it->valuestring))) {
                    *dirs = v ? v : *dirs;
                    rc = cet_fail(err, "out of memory");
                    break;
                }
                *dirs = v;
                ++*n;
            }
        }
    }
    cet_json_free(&j);
    free(path);
    return rc;
}

/* DIR/NAME, allocated; NULL with err filled when out of memory. */
static char *path_in(const char *dir, const char *name, struct cet_error *err)
{
    char *path = cet_run_path(dir, name);
    if (!path)
        cet_fail(err, "%s/%s: out of memory", dir, name);
    return path;
}

/* The PID written in the lock file, or 0 while its holder has not written it yet. */
static long holder(int fd)
{
    for (int tries = 0; tries < 50; tries++) {
        char buf[32];
        ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
        if (n > 0) {
            buf[n] = 0;
            long pid = strtol(buf, NULL, 10);
            if (pid > 0)
                return pid;
        }
        nanosleep(&(struct timespec){0, 2000000}, NULL); /* the holder writes it right away */
    }
    return 0;
}

/* 1 when dir holds nothing but the lock file (or does not exist). */
static int is_empty(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    int empty = 1;
    while (d && (de = readdir(d)))
        if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") && strcmp(de->d_name, CET_RUN_LOCK))
            empty = 0;
    if (d)
        closedir(d);
    return empty;
}

int cet_rundir_lock(int *fd, int *created, const char *dir, int need_empty, struct cet_error *err)
{
    struct stat st;
    *fd = -1;
    *created = 0;
    int exists = stat(dir, &st) == 0;
    if (exists && !S_ISDIR(st.st_mode))
        return cet_fail(err, "%s exists and is not a directory", dir);
    /* Checked before the lock file is made, so a refused directory is left
     * as it was, and again under the lock. */
    if (need_empty && !is_empty(dir))
        return 1;
    if (cet_mkdirs(dir))
        return cet_fail(err, "%s: cannot create directory: %s", dir, strerror(errno));
    char *path = path_in(dir, CET_RUN_LOCK, err);
    if (!path)
        return -1;
    int f = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    int rc = 0;
    if (f < 0) {
        rc = cet_fail(err, "%s: cannot write in the run directory: %s", path, strerror(errno));
    } else if (flock(f, LOCK_EX | LOCK_NB)) {
        int e = errno;
        long pid = e == EWOULDBLOCK ? holder(f) : 0;
        close(f);
        if (e != EWOULDBLOCK)
            rc = cet_fail(err, "%s: cannot lock: %s", path, strerror(e));
        else if (pid)
            rc = cet_fail(err, "%s is in use by process %ld, which holds %s", dir, pid, path);
        else
            rc = cet_fail(err, "%s is in use by another process, which holds %s", dir, path);
    }
    free(path);
    if (rc)
        return rc;
    if (need_empty && !is_empty(dir)) {
        close(f);
        return 1;
    }
    /* The PID is only for the message of a refused run: a full disk does
     * not stop the run here, it fails at its first real file. */
    char pid[32];
    int n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
    ssize_t written = ftruncate(f, 0) == 0 ? pwrite(f, pid, (size_t)n, 0) : -1;
    (void)written;
    *fd = f;
    *created = !exists;
    return 0;
}

int cet_rundir_alive(const char *dir)
{
    char *path = cet_run_path(dir, CET_RUN_LOCK);
    int f = path ? open(path, O_RDONLY | O_CLOEXEC) : -1, alive = 0;
    free(path);
    if (f < 0)
        return 0;
    /* A shared lock for an instant: refused only while a run holds it. */
    alive = flock(f, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
    close(f);
    return alive;
}

void cet_rundir_unlock(int fd, const char *remove_dir)
{
    if (fd < 0)
        return;
    if (remove_dir) {
        char *path = cet_run_path(remove_dir, CET_RUN_LOCK);
        if (path)
            unlink(path);
        free(path);
        rmdir(remove_dir); /* fails, harmlessly, unless empty (or the lock is left) */
    }
    close(fd); /* releases the flock */
}

static int is_run_file(const char *name)
{
    for (size_t i = 0; cet_run_files[i]; i++)
        if (!fnmatch(cet_run_files[i], name, 0))
            return 1;
    return 0;
}

/* NAME.tmp.PID of a run file, whose process is gone. */
static int dead_temporary(const char *name)
{
    const char *t = strstr(name, ".tmp.");
    if (!t)
        return 0;
    char base[256];
    if ((size_t)(t - name) >= sizeof base)
        return 0;
    memcpy(base, name, (size_t)(t - name));
    base[t - name] = 0;
    char *end;
    long pid = strtol(t + 5, &end, 10);
    return is_run_file(base) && !*end && pid > 0 && kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

/* Removes the run's files in dir (run_files 1), every .json (2) or only the
 * dead temporaries (0).  With dry set removes nothing and fails, as the
 * removal would, on one that is not a regular file: a clear that stops
 * half-way would lose a run. */
static int remove_matching(const char *dir, int run_files, int dry, struct cet_error *err)
{
    DIR *d = opendir(dir);
    if (!d)
        return cet_fail(err, "%s: %s", dir, strerror(errno));
    struct dirent *de;
    struct stat st;
    int rc = 0;
    while (!rc && (de = readdir(d))) {
        char *path;
        /* run_files 2: a run's subdirectory, where every .json is the run's */
        int ours = run_files == 2 ? !fnmatch("*.json", de->d_name, 0) || !fnmatch("*.json.tmp.*", de->d_name, 0)
                                  : run_files && is_run_file(de->d_name);
        if (!ours && !dead_temporary(de->d_name))
            continue;
        if (!(path = path_in(dir, de->d_name, err)))
            rc = -1;
        else if (!dry)
            rc = cet_remove_file(path, err);
        else if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode))
            rc = cet_remove_file(path, err); /* refuses, naming it */
        free(path);
    }
    closedir(d);
    return rc;
}

/* Fold directory sub (DIR/folds/K): a run directory with its two document
 * lists. */
static int clear_fold(const char *sub, struct cet_error *err)
{
    static const char *const own[] = {CET_FOLD_TRAIN, CET_FOLD_HELDOUT, CET_RUN_LOCK};
    int rc = cet_rundir_clear(sub, err);
    for (size_t i = 0; i < 3 && !rc; i++) {
        char *file = path_in(sub, own[i], err);
        if (!file)
            rc = -1;
        else
            rc = cet_remove_file(file, err);
        free(file);
    }
    if (!rc && rmdir(sub) && errno != ENOENT && errno != ENOTEMPTY)
        rc = cet_fail(err, "%s: cannot remove: %s", sub, strerror(errno));
    return rc;
}

/* DIR/folds/K for every K, then DIR/folds. */
static int clear_folds(const char *dir, struct cet_error *err)
{
    char *folds = path_in(dir, CET_RUN_FOLDS_DIR, err);
    if (!folds)
        return -1;
    DIR *d = opendir(folds);
    int rc = 0;
    struct dirent *de;
    while (d && !rc && (de = readdir(d))) {
        char *end, *sub;
        strtoul(de->d_name, &end, 10);
        if (end == de->d_name || *end)
            continue;
        rc = (sub = path_in(folds, de->d_name, err)) ? clear_fold(sub, err) : -1;
        free(sub);
    }
    if (d)
        closedir(d);
    if (d && !rc && rmdir(folds) && errno != ENOENT && errno != ENOTEMPTY)
        rc = cet_fail(err, "%s: cannot remove: %s", folds, strerror(errno));
    free(folds);
    return rc;
}

int cet_rundir_clear(const char *dir, struct cet_error *err)
{
    if (remove_matching(dir, 1, 1, err) || clear_folds(dir, err))
        return -1;
    for (size_t i = 0; cet_run_dirs[i]; i++) {
        char *sub = path_in(dir, cet_run_dirs[i], err);
        int rc = !sub ? -1
               : access(sub, F_OK) ? 0
               : remove_matching(sub, 2, 1, err) || remove_matching(sub, 2, 0, err) ? -1
               : rmdir(sub) && errno != ENOENT && errno != ENOTEMPTY
                   ? cet_fail(err, "%s: cannot remove: %s", sub, strerror(errno)) : 0;
        free(sub);
        if (rc)
            return -1;
    }
    return remove_matching(dir, 1, 0, err);
}

void cet_rundir_remove_temporaries(const char *dir)
{
    remove_matching(dir, 0, 0, NULL);
}
