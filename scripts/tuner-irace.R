# irace as a peer of scripts/tuner-comparison.sh: the training documents are
# its instances, the cost of a configuration on one is 1 - word F1, and its
# budget is the same number of page evaluations as the other tuners'
# (configurations x training documents).  Every race step goes to cetune in
# one `cetune evaluate` call: all the configurations it asks for, on all the
# documents it names (irace's targetRunnerParallel).  A step asks for one
# document, so the calls, not the page evaluations, are irace's cost
# (docs/experiment.md, "Tuners compared"): a step is split into calls only
# at 100 kB of arguments.
#
# usage: Rscript scripts/tuner-irace.R CETUNE SPACE SAMPLE SEED EXPERIMENTS OUT THREADS -d CORPUS...
#   SPACE        the folder `tuner_peer.py space` wrote (parameters.txt, ...)
#   SAMPLE       the training sample file (one PACKAGE/NAME a line)
#   EXPERIMENTS  irace's maxExperiments: page evaluations
#   OUT          writes elites.tsv there: per iteration, the page evaluations
#                used so far in configurations (/ documents) and the
#                iteration's best elite as evaluate arguments, tab-separated
#   THREADS      evaluate's --threads (0: all cores)
suppressPackageStartupMessages(library(irace))
args <- commandArgs(trailingOnly = TRUE)
dash <- which(args == "-d")
if (length(args) < 8 || length(dash) == 0 || dash[1] != 8)
  stop("usage: tuner-irace.R CETUNE SPACE SAMPLE SEED EXPERIMENTS OUT THREADS -d CORPUS...")
cetune <- args[1]; space <- args[2]; sample <- args[3]
seed <- as.integer(args[4]); experiments <- as.integer(args[5]); out <- args[6]
threads <- c("--threads", args[7])
# irace runs in OUT: every path becomes absolute.
cetune <- normalizePath(cetune); space <- normalizePath(space); sample <- normalizePath(sample)
dirs <- args[dash[1]:length(args)]
dirs <- vapply(dirs, function(d) if (d == "-d") d else normalizePath(d), "", USE.NAMES = FALSE)
dir.create(out, showWarnings = FALSE, recursive = TRUE)
out <- normalizePath(out)
extractor <- readLines(file.path(space, "extractor.txt"))
docs <- grep("^#", readLines(sample), value = TRUE, invert = TRUE)
docs <- docs[nzchar(docs)]
parameters <- readParameters(file.path(space, "parameters.txt"))

# A configuration (one row of irace's table) as -x/-P arguments; inactive
# parameters (NA) are left out, as cetune expects.
config_args <- function(conf) {
  a <- c("-x", extractor)
  for (n in parameters$names) {
    v <- conf[[n]]
    if (is.null(v) || is.na(v)) next
    a <- c(a, "-P", paste0(n, "=", if (is.numeric(v)) format(v, digits = 15) else as.character(v)))
  }
  a
}

# Runs configurations (their evaluate arguments) x documents, as few calls as the command line allows
# (100 kB each: system2 hands the shell one string, and Linux takes at most
# 128 kB in one argument); returns a matrix
# of F1, one row per configuration, one column per document.
args_max <- 100000
evaluate <- function(a, instances) {
  smp <- tempfile(fileext = ".txt")
  on.exit(unlink(smp))
  writeLines(instances, smp)
  chunks <- split(seq_along(a),
                  cumsum(vapply(a, function(x) sum(nchar(x) + 4), 0)) %/% args_max)
  do.call(rbind, lapply(chunks, function(k) {
    cmd <- c("evaluate", unlist(a[k]), dirs, "-s", smp, "--per-doc",
             "--format", "csv", threads)
    res <- system2(cetune, shQuote(cmd), stdout = TRUE, stderr = FALSE)
    if (!is.null(attr(res, "status"))) stop("cetune evaluate failed: ", paste(cmd, collapse = " "))
    t <- read.csv(text = res, stringsAsFactors = FALSE)
    # Rows come configuration after configuration, each over the same documents.
    m <- matrix(t$f1, nrow = length(k), byrow = TRUE)
    colnames(m) <- paste0(t$package, "/", t$name)[seq_len(ncol(m))]
    m[, instances, drop = FALSE]
  }))
}

args_of <- new.env()  # configuration id -> its evaluate arguments
runner <- function(experiments, exec.target.runner, scenario, target.runner) {
  ids <- vapply(experiments, function(e) as.character(e$id.configuration), "")
  insts <- vapply(experiments, function(e) e$instance, "")
  uid <- unique(ids)
  f1 <- evaluate(lapply(uid, function(i) {
    # Formatting a configuration is most of this script's own time: once each.
    if (is.null(args_of[[i]])) args_of[[i]] <- config_args(experiments[[match(i, ids)]]$configuration)
    args_of[[i]]
  }), unique(insts))
  lapply(seq_along(experiments), function(k)
    list(cost = 1 - f1[match(ids[k], uid), insts[k]], time = 1))
}

scenario <- defaultScenario(list(
  instances = docs, maxExperiments = experiments, seed = seed, deterministic = TRUE,
  targetRunnerParallel = runner, execDir = out, logFile = file.path(out, "irace.Rdata"),
  configurationsFile = file.path(space, "configurations.txt"),
  forbiddenFile = if (file.size(file.path(space, "forbidden.txt")) > 0)
    file.path(space, "forbidden.txt") else "",
  quiet = TRUE))
scenario <- checkScenario(scenario)
irace(scenario = scenario, parameters = parameters)

load(file.path(out, "irace.Rdata"))
log <- iraceResults$experimentLog
all <- iraceResults$allConfigurations
lines <- character(0)
for (it in seq_along(iraceResults$iterationElites)) {
  used <- sum(log[, "iteration"] <= it) / length(docs)
  conf <- all[all$.ID. == iraceResults$iterationElites[it], , drop = FALSE]
  lines <- c(lines, paste(c(sprintf("%.2f", used), config_args(conf)), collapse = "\t"))
}
writeLines(lines, file.path(out, "elites.tsv"))
