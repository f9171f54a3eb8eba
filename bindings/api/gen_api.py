#!/usr/bin/env python3
"""Extracts the machine-readable description of the C API from the header.

    python3 bindings/api/gen_api.py                  # rewrite crawlsched-api.json
    python3 bindings/api/gen_api.py --check          # exit 1 if it is stale
    python3 bindings/api/gen_api.py --check --header PATH   # against another header

Reads include/crawlsched.h (cbindgen's output) and writes
bindings/api/crawlsched-api.json: every constant, opaque handle type,
typedef, struct and function with its C types, parameter names and doc
comment. The binding generators (bindings/java/gen_native_api.py,
bindings/python/tools/gen_ffi.py) read only that file.

The parser accepts exactly the constructs cbindgen emits for this crate
(include guard, #include, numeric #define, the __cplusplus extern "C"
block, opaque and defined struct typedefs, scalar typedefs, function
declarations) and stops with the line number on anything else, so a new
construct in the header is an error here, never a silently missing entry.

JSON layout: object keys sorted, two-space indent, lists in header order
(the generated bindings list functions and constants in that order).
"""
import json
import pathlib
import re
import sys

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
HEADER = ROOT / "include" / "crawlsched.h"
OUTPUT = HERE / "crawlsched-api.json"
FORMAT_VERSION = 1

# Types from <stdint.h>, <stddef.h> and the language that the header may use.
BUILTIN = {"void", "char", "bool", "float", "double", "size_t", "intptr_t", "uintptr_t",
           "int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t", "int64_t", "uint64_t"}
INCLUDES = {"<stddef.h>", "<stdint.h>"}
GUARD = "CRAWLSCHED_H"
INT_SUFFIX_TYPE = {"": "int", "U": "unsigned int", "L": "long", "UL": "unsigned long",
                   "LL": "long long", "ULL": "unsigned long long"}
INT_RANGE = {"int": 1 << 31, "unsigned int": 1 << 32}


class HeaderError(Exception):
    pass


TOKEN = re.compile(r"""
    (?P<ws>[ \t\r\n]+)
  | (?P<doc>/\*\*(?!/).*?\*/)
  | (?P<comment>/\*.*?\*/|//[^\n]*)
  | (?P<pp>\#[^\n]*)
  | (?P<ident>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<number>[0-9]+[A-Za-z0-9_]*)
  | (?P<string>"[^"\n]*")
  | (?P<punct>[*(),;{}\[\]])
""", re.S | re.X)


def tokenize(text):
    """[(kind, value, line)]: comments dropped except doc comments."""
    toks, pos, line = [], 0, 1
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m:
            raise HeaderError(f"line {line}: unexpected character {text[pos]!r}")
        kind, value = m.lastgroup, m.group()
        if kind == "pp":
            # A directive may end in a // comment (cbindgen: "#endif // __cplusplus").
            value = re.sub(r"\s*(//.*|/\*.*\*/)$", "", value)
        if kind not in ("ws", "comment"):
            toks.append((kind, value, line))
        line += m.group().count("\n")
        pos = m.end()
    return toks


def doc_lines(comment):
    """The text of a /** ... */ comment: one string per line, decoration
    (leading ' * ') and surrounding blank lines removed, inner blank lines kept."""
    body = comment[3:-2]
    lines = [re.sub(r"^\s*\* ?", "", l).rstrip() for l in body.split("\n")]
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


def int_constant(name, value, line):
    m = re.fullmatch(r"(-?)([0-9]+)(U?L{0,2})", value)
    if not m or (m.group(2) != "0" and m.group(2).startswith("0")):
        raise HeaderError(f"line {line}: #define {name}: value {value!r} is not a decimal integer literal")
    number = int(m.group(1) + m.group(2))
    ctype = INT_SUFFIX_TYPE[m.group(3)]
    limit = INT_RANGE.get(ctype)
    if limit is not None and not (-limit if ctype == "int" else 0) <= number < limit:
        raise HeaderError(f"line {line}: #define {name}: {value} does not fit {ctype}")
    return {"name": name, "type": ctype, "value": number}


class Parser:
    def __init__(self, text):
        self.toks = tokenize(text)
        self.i = 0
        self.api = {"constants": [], "functions": [], "opaque_types": [], "structs": [], "typedefs": []}
        self.kinds = {t: "builtin" for t in BUILTIN}  # type name -> builtin/opaque/struct/typedef
        self.const_names = set()

    # -- token helpers
    def peek(self):
        if self.i >= len(self.toks):
            return ("eof", "", self.toks[-1][2] if self.toks else 1)
        return self.toks[self.i]

    def take(self, kind=None, value=None):
        tok = self.peek()
        if (kind and tok[0] != kind) or (value is not None and tok[1] != value):
            want = repr(value) if value is not None else kind
            raise HeaderError(f"line {tok[2]}: expected {want}, found {tok[1]!r}")
        self.i += 1
        return tok

    def take_doc(self):
        if self.peek()[0] == "doc":
            doc = doc_lines(self.take()[1])
            if self.peek()[0] == "doc":
                raise HeaderError(f"line {self.peek()[2]}: two doc comments in a row")
            return doc
        return []

    # -- grammar
    def parse(self):
        self.directive(f"#ifndef {GUARD}")
        self.directive(f"#define {GUARD}")
        in_extern_c = False
        while True:
            doc = self.take_doc()
            kind, value, line = self.peek()
            if kind == "eof":
                raise HeaderError(f"line {line}: missing #endif of the include guard")
            if kind == "pp":
                if doc and not value.startswith("#define "):
                    raise HeaderError(f"line {line}: doc comment before {value!r}")
                if value == "#endif" and self.i == len(self.toks) - 1:
                    if in_extern_c:
                        raise HeaderError(f"line {line}: extern \"C\" block not closed")
                    self.i += 1
                    break
                if value == "#ifdef __cplusplus":
                    in_extern_c = self.cplusplus_block(in_extern_c)
                    continue
                self.i += 1
                self.preprocessor(value, line, doc)
            elif kind == "ident" and value == "typedef":
                self.typedef(doc)
            elif kind == "ident":
                if not in_extern_c:
                    raise HeaderError(f"line {line}: declaration outside the extern \"C\" block")
                self.function(doc)
            else:
                raise HeaderError(f"line {line}: unexpected {value!r} at top level")
        return self.api

    def directive(self, text):
        tok = self.take("pp")
        if " ".join(tok[1].split()) != text:
            raise HeaderError(f"line {tok[2]}: expected {text!r}, found {tok[1]!r}")

    def cplusplus_block(self, in_extern_c):
        """#ifdef __cplusplus / extern "C" {  or  } / #endif."""
        self.directive("#ifdef __cplusplus")
        if not in_extern_c:
            self.take("ident", "extern")
            self.take("string", '"C"')
            self.take("punct", "{")
        else:
            self.take("punct", "}")
        self.directive("#endif")
        return not in_extern_c

    def preprocessor(self, value, line, doc):
        words = value.split()
        if words[0] == "#include" and len(words) == 2 and words[1] in INCLUDES:
            return
        if words[0] == "#define" and len(words) == 3:
            name = words[1]
            if not re.fullmatch(r"CRAWLSCHED_[A-Z0-9_]+", name):
                raise HeaderError(f"line {line}: #define of {name!r} lacks the CRAWLSCHED_ prefix")
            if name in self.const_names:
                raise HeaderError(f"line {line}: {name} defined twice")
            const = int_constant(name, words[2], line)
            const["doc"] = doc
            self.const_names.add(name)
            self.api["constants"].append(const)
            return
        raise HeaderError(f"line {line}: unsupported preprocessor line {value!r}")

    def new_type(self, name, kind, line):
        if name in self.kinds:
            raise HeaderError(f"line {line}: type {name} declared twice")
        self.kinds[name] = kind

    def typedef(self, doc):
        line = self.take("ident", "typedef")[2]
        if self.peek()[1] == "struct":
            self.take()
            tag = self.take("ident")[1]
            if self.peek()[1] == "{":
                self.take()
                fields = []
                while self.peek()[1] != "}":
                    fields.append(self.field())
                self.take("punct", "}")
                kind = "struct"
            else:
                fields, kind = None, "opaque"
            name = self.take("ident")[1]
            self.take("punct", ";")
            if name != tag:
                raise HeaderError(f"line {line}: typedef struct {tag} {name}: tag and name differ")
            self.new_type(name, kind, line)
            if kind == "struct":
                self.api["structs"].append({"doc": doc, "fields": fields, "name": name})
            else:
                self.api["opaque_types"].append({"doc": doc, "name": name})
        else:
            target = self.type_()
            name = self.take("ident")[1]
            self.take("punct", ";")
            if target["pointers"] or target["const"] or target["kind"] != "builtin":
                raise HeaderError(f"line {line}: typedef {name}: only aliases of builtin scalars are supported")
            self.new_type(name, "typedef", line)
            self.api["typedefs"].append({"doc": doc, "name": name, "type": target})

    def field(self):
        doc = self.take_doc()
        ftype = self.type_()
        name = self.take("ident")[1]
        out = {"doc": doc, "name": name, "type": ftype}
        if self.peek()[1] == "[":
            self.take()
            kind, length, line = self.take()
            if kind == "ident":
                if length not in self.const_names:
                    raise HeaderError(f"line {line}: array length {length} is not a constant defined above")
                out["length"] = {"constant": length,
                                 "value": next(c["value"] for c in self.api["constants"] if c["name"] == length)}
            elif kind == "number" and length.isdigit():
                out["length"] = {"value": int(length)}
            else:
                raise HeaderError(f"line {line}: unsupported array length {length!r}")
            self.take("punct", "]")
        self.take("punct", ";")
        return out

    def type_(self):
        """[const] [struct] NAME *...: the C type of a declaration."""
        line = self.peek()[2]
        const = struct = False
        if self.peek()[1] == "const":
            self.take()
            const = True
        if self.peek()[1] == "struct":
            self.take()
            struct = True
        base = self.take("ident")[1]
        if base in ("const", "struct", "unsigned", "signed", "long", "short", "int", "enum", "union"):
            raise HeaderError(f"line {line}: unsupported type syntax at {base!r}")
        kind = self.kinds.get(base)
        if kind is None:
            raise HeaderError(f"line {line}: unknown type {base!r}")
        if struct and kind not in ("opaque", "struct"):
            raise HeaderError(f"line {line}: 'struct {base}' but {base} is not a struct")
        # pointer_const[i]: the i-th '*' (counted from the base type) is const.
        pointer_const = []
        spelling = " ".join((["const"] if const else []) + (["struct"] if struct else []) + [base])
        while self.peek()[1] == "*":
            self.take()
            spelling += " *" if not pointer_const or pointer_const[-1] else "*"
            pointer_const.append(self.peek()[1] == "const")
            if pointer_const[-1]:
                self.take()
                spelling += "const"
        return {"base": base, "c": spelling, "const": const, "kind": kind,
                "pointer_const": pointer_const, "pointers": len(pointer_const)}

    def function(self, doc):
        line = self.peek()[2]
        ret = self.type_()
        name = self.take("ident")[1]
        if not name.startswith("crawlsched_"):
            raise HeaderError(f"line {line}: function {name} lacks the crawlsched_ prefix")
        if any(f["name"] == name for f in self.api["functions"]):
            raise HeaderError(f"line {line}: function {name} declared twice")
        self.take("punct", "(")
        params = []
        if self.peek()[1] == "void" and self.toks[self.i + 1][1] == ")":
            self.take()
        else:
            while True:
                ptype = self.type_()
                pname = self.take("ident")[1]
                if ptype["kind"] == "builtin" and ptype["base"] == "void" and not ptype["pointers"]:
                    raise HeaderError(f"line {line}: parameter {pname} of type void")
                if any(p["name"] == pname for p in params):
                    raise HeaderError(f"line {line}: parameter {pname} repeated")
                params.append({"name": pname, "type": ptype})
                if self.peek()[1] != ",":
                    break
                self.take()
        self.take("punct", ")")
        self.take("punct", ";")
        self.api["functions"].append({"doc": doc, "name": name, "params": params, "return": ret})


def extract(text):
    """The API description (a JSON-ready dict) of a header's text."""
    api = Parser(text).parse()
    if not api["functions"]:
        raise HeaderError("no function found in the header")
    api["format_version"] = FORMAT_VERSION
    api["source"] = "include/crawlsched.h"
    return api


def render(text):
    """The JSON file's content for a header's text."""
    return json.dumps(extract(text), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def main(argv):
    check = "--check" in argv
    header = HEADER
    if "--header" in argv:
        header = pathlib.Path(argv[argv.index("--header") + 1])
    try:
        new = render(header.read_text())
    except HeaderError as e:
        print(f"gen_api: {header}: {e}", file=sys.stderr)
        return 2
    if check:
        old = OUTPUT.read_text() if OUTPUT.exists() else ""
        if old != new:
            print(f"gen_api: {OUTPUT.relative_to(ROOT)} is stale ({header} changed): "
                  "run python3 bindings/api/gen_api.py and commit the result", file=sys.stderr)
            return 1
        print(f"gen_api: {OUTPUT.relative_to(ROOT)} up to date")
        return 0
    OUTPUT.write_text(new)
    print(f"gen_api: wrote {OUTPUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
