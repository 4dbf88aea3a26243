"""Type stubs of the cetune package (the C extension cetune._cetune)."""
import os
from typing import Any, Iterator, Literal, Optional, TypedDict, Union, overload

__version__: str

class Error(Exception):
    """An error of libcetune, carrying cetune's message."""

class Page(TypedDict):
    url: Optional[str]
    title: Optional[str]
    author: Optional[str]
    date: Optional[str]
    sitename: Optional[str]
    language: Optional[str]
    canonical: Optional[str]
    text: str
    words: int

class Record(TypedDict):
    uri: Optional[str]
    record_id: Optional[str]
    date: Optional[str]
    type: Optional[str]
    kind: str
    mime: str
    status: int
    charset: Optional[str]
    html: Optional[bytes]
    offset: int
    skip: int
    length: int

class Scores(TypedDict):
    precision: float
    recall: float
    f1: float
    extract_words: int
    gold_words: int
    overlap: int

class Extractor:
    """One configuration of cetune (None: the shipped one), ready to extract pages."""
    def __init__(self, config: Union[str, bytes, os.PathLike[str], None] = None) -> None: ...
    @property
    def config(self) -> str: ...
    @property
    def extractor(self) -> str: ...
    @overload
    def extract(self, html: Union[bytes, bytearray, memoryview, str], url: Optional[str] = None,
                format: Literal["text", "markdown", "html"] = "text",
                charset: Optional[str] = None) -> str: ...
    @overload
    def extract(self, html: Union[bytes, bytearray, memoryview, str], url: Optional[str] = None,
                *, format: Literal["json"], charset: Optional[str] = None) -> Page: ...
    @overload
    def extract(self, html: Union[bytes, bytearray, memoryview, str], url: Optional[str],
                format: Literal["json"], charset: Optional[str] = None) -> Page: ...

class WarcReader(Iterator[Record]):
    def __iter__(self) -> "WarcReader": ...
    def __next__(self) -> Record: ...

def read_warc(path: Union[str, bytes, os.PathLike[str]], pages_only: bool = True,
              max_bytes: int = 0) -> WarcReader: ...
def f1(extract: str, gold: str) -> float: ...
def scores(extract: str, gold: str) -> Scores: ...
