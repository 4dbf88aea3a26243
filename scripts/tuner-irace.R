# irace as a peer of scripts/tuner-comparison.sh: the training documents are
# its instances, the cost of a configuration on one is 1 - word F1, and its
# budget is the same number of page evaluations as the other tuners'
# (configurations x training documents).  Every race step goes to cetune in
# one `cetune evaluate` call: all the configurations it asks for, on all the
# documents it names (irace's targetRunnerParallel).
#
# usage: Rscript scripts/tuner-irace.R CETUNE SPACE SAMPLE SEED EXPERIMENTS OUT BATCH THREADS -d CORPUS...
#   SPACE        the folder `tuner_peer.py space` wrote (parameters.txt, ...)
#   SAMPLE       the training sample file (one PACKAGE/NAME a line)
#   EXPERIMENTS  irace's maxExperiments: page evaluations
#   OUT          writes elites.tsv there: per iteration, the page evaluations
#                used so far in configurations (/ documents) and the
#                iteration's best elite as evaluate arguments, tab-separated
#   BATCH        configurations per evaluate call
#   THREADS      evaluate's --threads (0: all cores)
suppressPackageStartupMessages(library(irace))
args <- commandArgs(trailingOnly = TRUE)
dash <- which(args == "-d")
if (length(args) < 9 || length(dash) == 0 || dash[1] != 9)
  stop("usage: tuner-irace.R CETUNE SPACE SAMPLE SEED EXPERIMENTS OUT BATCH THREADS -d CORPUS...")
cetune <- args[1]; space <- args[2]; sample <- args[3]
seed <- as.integer(args[4]); experiments <- as.integer(args[5]); out <- args[6]
batch <- as.integer(args[7]); threads <- c("--threads", args[8])
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

# Runs configurations x documents, BATCH configurations per call (one
# command line holds only so much); returns a matrix of F1, one row per
# configuration, one column per document.
evaluate <- function(confs, instances) {
  smp <- tempfile(fileext = ".txt")
  on.exit(unlink(smp))
  writeLines(instances, smp)
  chunks <- split(seq_along(confs), ceiling(seq_along(confs) / batch))
  do.call(rbind, lapply(chunks, function(k) {
    cmd <- c("evaluate", unlist(lapply(confs[k], config_args)), dirs, "-s", smp, "--per-doc",
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

runner <- function(experiments, exec.target.runner, scenario, target.runner) {
  ids <- vapply(experiments, function(e) as.character(e$id.configuration), "")
  insts <- vapply(experiments, function(e) e$instance, "")
  uid <- unique(ids)
  confs <- lapply(uid, function(i) experiments[[match(i, ids)]]$configuration)
  f1 <- evaluate(confs, unique(insts))
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
