/* cetune._cetune: the CPython extension over libcetune behind `import cetune`
 * (python/cetune/__init__.py, docs/python.md).
 *
 * Extraction and WARC reading run without the GIL: an Extractor keeps a
 * pool of page contexts (struct cet_page is one thread's scratch), taken
 * and given back while the GIL is held, so threads extract in parallel. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <dlfcn.h>
#include <limits.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "cetune/config.h"
#include "cetune/eval.h"
#include "cetune/page.h"
#include "cetune/warc.h"

static PyObject *cetune_error; /* cetune.Error */
static PyObject *json_loads;   /* json.loads, for the "json" format */

static PyObject *raise_cetune(const struct cet_error *err)
{
    PyErr_SetString(cetune_error, err->msg);
    return NULL;
}

/* A method table's function and flags for a function of (self, args,
 * kwargs): the cast through void (*)(void) keeps -Wcast-function-type quiet. */
#define KW_METHOD(fn) (PyCFunction)(void (*)(void))(fn), METH_VARARGS | METH_KEYWORDS

/* ---- Extractor ---- */

/* The shipped configuration as the module finds it: $CETUNE_CONFIG, else
 * beside the module itself (PREFIX/lib/python3.X/dist-packages/cetune/ reads
 * PREFIX/share/cetune/, a build tree's build/python/cetune/ reads
 * build/share/cetune/), else where libcetune looks (cet_config_shipped_path). */
static int shipped_path(char *out, size_t size, struct cet_error *err)
{
    const char *env = getenv("CETUNE_CONFIG");
    if (env && *env)
        return cet_config_shipped_path(out, size, env, err);
    Dl_info info;
    if (dladdr((void *)&shipped_path, &info) && info.dli_fname) {
        static const char *const up[] = {"/../../share/cetune/", "/../../../../share/cetune/"};
        const char *slash = strrchr(info.dli_fname, '/');
        int dir = slash ? (int)(slash - info.dli_fname) : 0;
        for (size_t i = 0; i < sizeof up / sizeof *up && slash; i++) {
            if (snprintf(out, size, "%.*s%s%s", dir, info.dli_fname, up[i], CET_CONFIG_SHIPPED) <
                    (int)size &&
                access(out, R_OK) == 0)
                return 0;
        }
    }
    return cet_config_shipped_path(out, size, NULL, err);
}

#define POOL 64

typedef struct {
    PyObject_HEAD
    struct cet_config cfg;
    int loaded;
    PyObject *path; /* str: the configuration file */
    struct cet_page *pool[POOL];
    int npool;
} Extractor;

static int extractor_init(Extractor *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"config", NULL};
    PyObject *config = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|O:Extractor", kwlist, &config))
        return -1;
    if (self->loaded) {
        cet_config_free(&self->cfg);
        self->loaded = 0;
    }
    Py_CLEAR(self->path);
    char shipped[PATH_MAX + 64];
    const char *path;
    PyObject *bytes = NULL;
    struct cet_error err;
    if (config == Py_None) {
        if (shipped_path(shipped, sizeof shipped, &err)) {
            raise_cetune(&err);
            return -1;
        }
        path = shipped;
    } else {
        if (!PyUnicode_FSConverter(config, &bytes))
            return -1;
        path = PyBytes_AS_STRING(bytes);
    }
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = cet_config_load(&self->cfg, path, &err);
    Py_END_ALLOW_THREADS
    if (rc) {
        Py_XDECREF(bytes);
        raise_cetune(&err);
        return -1;
    }
    self->loaded = 1;
    self->path = PyUnicode_DecodeFSDefault(path);
    Py_XDECREF(bytes);
    return self->path ? 0 : -1;
}

static void extractor_dealloc(Extractor *self)
{
    for (int i = 0; i < self->npool; i++)
        cet_page_free(self->pool[i]);
    if (self->loaded)
        cet_config_free(&self->cfg);
    Py_XDECREF(self->path);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *extractor_extract(Extractor *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"html", "url", "format", "charset", NULL};
    PyObject *html;
    const char *url = NULL, *format = "text", *charset = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|zsz:extract", kwlist, &html, &url, &format,
                                     &charset))
        return NULL;
    if (!self->loaded)
        return PyErr_Format(cetune_error, "the Extractor was not initialised");
    int f = cet_page_format_find(format);
    if (f < 0)
        return PyErr_Format(PyExc_ValueError, "format must be \"text\", \"markdown\", "
                            "\"json\" or \"html\", not \"%s\"", format);
    if (charset && !cet_charset_known(charset))
        return PyErr_Format(PyExc_ValueError, "unknown charset \"%s\"", charset);
    Py_buffer view;
    PyObject *utf8 = NULL;
    if (PyUnicode_Check(html)) {
        /* Text is already decoded: its bytes are UTF-8 whatever the page declares. */
        if (!(utf8 = PyUnicode_AsUTF8String(html)))
            return NULL;
        charset = "utf-8";
        html = utf8;
    }
    if (PyObject_GetBuffer(html, &view, PyBUF_SIMPLE)) {
        Py_XDECREF(utf8);
        PyErr_SetString(PyExc_TypeError, "html must be bytes or str");
        return NULL;
    }
    struct cet_page *pg = self->npool ? self->pool[--self->npool] : NULL;
    struct cet_error err;
    struct cet_buf out = {0};
    int rc = 0;
    struct cet_page_opts opts = {.format = f, .url = url, .charset = charset};
    Py_BEGIN_ALLOW_THREADS
    if (!pg)
        rc = cet_page_new(&pg, &err);
    if (!rc)
        rc = cet_page_extract(pg, &self->cfg, view.buf, (size_t)view.len, &opts, &out, NULL, &err);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&view);
    Py_XDECREF(utf8);
    if (pg) {
        if (self->npool < POOL)
            self->pool[self->npool++] = pg;
        else
            cet_page_free(pg);
    }
    if (rc) {
        cet_buf_free(&out);
        return raise_cetune(&err);
    }
    PyObject *s = PyUnicode_DecodeUTF8(out.p ? out.p : "", (Py_ssize_t)out.len, "replace");
    cet_buf_free(&out);
    if (!s || f != CET_PAGE_JSON)
        return s;
    PyObject *d = PyObject_CallOneArg(json_loads, s);
    Py_DECREF(s);
    return d;
}

static PyObject *extractor_config(Extractor *self, void *closure)
{
    (void)closure;
    if (!self->path)
        Py_RETURN_NONE;
    Py_INCREF(self->path);
    return self->path;
}

static PyObject *extractor_name(Extractor *self, void *closure)
{
    (void)closure;
    if (!self->loaded)
        Py_RETURN_NONE;
    return PyUnicode_FromString(self->cfg.ex->name);
}

static PyObject *extractor_repr(Extractor *self)
{
    return PyUnicode_FromFormat("cetune.Extractor(config=%R)", self->path ? self->path : Py_None);
}

static PyMethodDef extractor_methods[] = {
    {"extract", KW_METHOD(extractor_extract),
     "extract(html, url=None, format=\"text\", charset=None)\n--\n\n"
     "The main content of one page.\n\n"
     "html: the page as bytes (any charset, found as browsers do: byte-order mark,\n"
     "charset, <meta>, UTF-8, windows-1252) or str (already decoded).\n"
     "url: the page's URL: the JSON's \"url\", the base of a relative canonical link.\n"
     "format: \"text\" (the main text, as `cetune extract` prints it), \"markdown\",\n"
     "\"json\" (a dict: url, title, author, date, sitename, language, canonical, text,\n"
     "words; None where the page gives nothing) or \"html\" (the cleaned page).\n"
     "charset: the charset the transport declared (an HTTP Content-Type's), before\n"
     "the page's own.\n\n"
     "The GIL is released while extracting.  Raises cetune.Error with cetune's\n"
     "message when the page cannot be used (empty, binary, too large or deep)."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef extractor_getset[] = {
    {"config", (getter)extractor_config, NULL, "The configuration file in use.", NULL},
    {"extractor", (getter)extractor_name, NULL, "The name of the configuration's extractor.",
     NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject ExtractorType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "cetune.Extractor",
    .tp_basicsize = sizeof(Extractor),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Extractor(config=None)\n--\n\n"
              "One configuration of cetune, ready to extract pages.\n\n"
              "config: the path of a configuration JSON (a tuned run's best.json, or a\n"
              "file of configs/); None: the shipped configuration (share/cetune/configs/\n"
              "article.json, or $CETUNE_CONFIG).  Raises cetune.Error naming the file\n"
              "when it cannot be read or is refused.  One Extractor may be shared by\n"
              "threads.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)extractor_init,
    .tp_dealloc = (destructor)extractor_dealloc,
    .tp_repr = (reprfunc)extractor_repr,
    .tp_methods = extractor_methods,
    .tp_getset = extractor_getset,
};

/* ---- read_warc ---- */

typedef struct {
    PyObject_HEAD
    struct cet_warc *w;
    int pages_only;
} WarcReader;

static void reader_dealloc(WarcReader *self)
{
    cet_warc_close(self->w);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *str_or_none(const char *s)
{
    if (!s || !*s)
        Py_RETURN_NONE;
    return PyUnicode_DecodeUTF8(s, (Py_ssize_t)strlen(s), "replace");
}

static PyObject *reader_next(WarcReader *self)
{
    if (!self->w)
        return NULL;
    for (;;) {
        struct cet_warc_record r;
        struct cet_error err;
        int rc;
        Py_BEGIN_ALLOW_THREADS
        rc = cet_warc_next(self->w, &r, &err);
        Py_END_ALLOW_THREADS
        if (rc == 0) {
            cet_warc_close(self->w);
            self->w = NULL;
            return NULL; /* StopIteration */
        }
        if (rc < 0) {
            /* A bad record is passed over, as `cetune extract --warc` does. */
            if (PyErr_WarnEx(PyExc_RuntimeWarning, err.msg, 1))
                return NULL;
            continue;
        }
        if (self->pages_only && r.kind != CET_WARC_PAGE)
            continue;
        PyObject *html = r.body ? PyBytes_FromStringAndSize(r.body, (Py_ssize_t)r.len)
                                : (Py_INCREF(Py_None), Py_None);
        return Py_BuildValue("{s:N,s:N,s:N,s:N,s:s,s:s,s:i,s:N,s:N,s:K,s:K,s:N}",
                             "uri", str_or_none(r.target_uri), "record_id",
                             str_or_none(r.record_id), "date", str_or_none(r.date), "type",
                             str_or_none(r.type), "kind", cet_warc_kind_name(r.kind),
                             "mime", r.mime ? r.mime : "", "status", r.status, "charset",
                             str_or_none(r.charset), "html", html, "offset",
                             (unsigned long long)r.offset, "skip", (unsigned long long)r.skip,
                             "length", PyLong_FromSize_t(r.body ? r.len : 0));
    }
}

static PyTypeObject WarcReaderType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "cetune.WarcReader",
    .tp_basicsize = sizeof(WarcReader),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The records of a WARC file, one dict each (cetune.read_warc).",
    .tp_dealloc = (destructor)reader_dealloc,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = (iternextfunc)reader_next,
};

static PyObject *read_warc(PyObject *mod, PyObject *args, PyObject *kw)
{
    (void)mod;
    static char *kwlist[] = {"path", "pages_only", "max_bytes", NULL};
    PyObject *path;
    int pages_only = 1;
    Py_ssize_t max_bytes = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O&|pn:read_warc", kwlist, PyUnicode_FSConverter,
                                     &path, &pages_only, &max_bytes))
        return NULL;
    if (max_bytes < 0) {
        Py_DECREF(path);
        return PyErr_Format(PyExc_ValueError, "max_bytes must not be negative");
    }
    WarcReader *r = PyObject_New(WarcReader, &WarcReaderType);
    if (!r) {
        Py_DECREF(path);
        return NULL;
    }
    r->w = NULL;
    r->pages_only = pages_only;
    struct cet_error err;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = cet_warc_open(&r->w, PyBytes_AS_STRING(path), (size_t)max_bytes, &err);
    Py_END_ALLOW_THREADS
    Py_DECREF(path);
    if (rc) {
        Py_DECREF(r);
        return raise_cetune(&err);
    }
    return (PyObject *)r;
}

/* ---- f1 ---- */

static PyObject *score(PyObject *args, PyObject *kw, const char *name, int all)
{
    static char *kwlist[] = {"extract", "gold", NULL};
    const char *a, *b;
    Py_ssize_t na, nb;
    char fmt[32];
    snprintf(fmt, sizeof fmt, "s#s#:%s", name);
    if (!PyArg_ParseTupleAndKeywords(args, kw, fmt, kwlist, &a, &na, &b, &nb))
        return NULL;
    struct cet_score s;
    struct cet_error err;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = cet_score_text(&s, a, (size_t)na, b, (size_t)nb, &err);
    Py_END_ALLOW_THREADS
    if (rc)
        return raise_cetune(&err);
    if (!all)
        return PyFloat_FromDouble(s.f1);
    return Py_BuildValue("{s:d,s:d,s:d,s:I,s:I,s:I}", "precision", s.p, "recall", s.r, "f1",
                         s.f1, "extract_words", s.n_extract, "gold_words", s.n_gold, "overlap",
                         s.overlap);
}

static PyObject *f1(PyObject *mod, PyObject *args, PyObject *kw)
{
    (void)mod;
    return score(args, kw, "f1", 0);
}

static PyObject *scores(PyObject *mod, PyObject *args, PyObject *kw)
{
    (void)mod;
    return score(args, kw, "scores", 1);
}

static PyMethodDef module_methods[] = {
    {"read_warc", KW_METHOD(read_warc),
     "read_warc(path, pages_only=True, max_bytes=0)\n--\n\n"
     "Yields the records of a WARC file (plain, gzipped per record or whole) as\n"
     "dicts: uri, record_id, date, type, kind (\"page\", \"not HTML\", \"not 2xx\",\n"
     "\"revisit\", \"request\", \"other\", \"too large\"), mime, status, charset\n"
     "(the HTTP Content-Type's, or None), html (a page's bytes, transfer and\n"
     "content encodings undone; None for other kinds), offset, skip, length.\n"
     "pages_only: only the HTML pages (kind \"page\").  max_bytes: a larger page\n"
     "is \"too large\" (0: 64 MB).  A truncated or corrupt record is passed over\n"
     "with a RuntimeWarning naming its offset.  Raises cetune.Error when the\n"
     "file cannot be opened."},
    {"f1", KW_METHOD(f1),
     "f1(extract, gold)\n--\n\n"
     "cetune's word F1 of an extract against a gold text: words after NFKC and\n"
     "case folding, overlap by the longest common subsequence (both empty: 1.0)."},
    {"scores", KW_METHOD(scores),
     "scores(extract, gold)\n--\n\n"
     "The word metric in full: a dict of precision, recall, f1, extract_words,\n"
     "gold_words and overlap."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, .m_name = "cetune._cetune",
    .m_doc = "The C extension behind the cetune package (libcetune).", .m_size = -1,
    .m_methods = module_methods};

PyMODINIT_FUNC PyInit__cetune(void)
{
    if (PyType_Ready(&ExtractorType) < 0 || PyType_Ready(&WarcReaderType) < 0)
        return NULL;
    PyObject *json = PyImport_ImportModule("json");
    if (!json)
        return NULL;
    json_loads = PyObject_GetAttrString(json, "loads");
    Py_DECREF(json);
    if (!json_loads)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m)
        return NULL;
    cetune_error = PyErr_NewExceptionWithDoc(
        "cetune.Error", "An error of libcetune; its message is cetune's (file, line, reason).",
        NULL, NULL);
    if (!cetune_error || PyModule_AddObjectRef(m, "Error", cetune_error) < 0 ||
        PyModule_AddObjectRef(m, "Extractor", (PyObject *)&ExtractorType) < 0 ||
        PyModule_AddObjectRef(m, "WarcReader", (PyObject *)&WarcReaderType) < 0 ||
        PyModule_AddStringConstant(m, "__version__", CETUNE_VERSION) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
