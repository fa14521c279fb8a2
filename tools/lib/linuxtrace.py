"""Linux's readahead and block tracepoints as text: parsing and comparing.

The lines come from two places and mean the same: a Linux kernel's
/sys/kernel/tracing/trace (tools/linux-ref run and record write them, each
prefixed with the task, CPU, flags and timestamp), and lookahead's
`ratrace format=linux` (the event name first). parse() takes either and
refuses anything else with the file and line named; compare() lines two
event lists up for tools/linux-ref compare.

    events = parse("tests/linux-ref/seq64k.trace")      # raises TraceError
    report = compare(linux_events, lookahead_events)
"""
import re

# include/trace/events/readahead.h: each event's fields, in the order it prints them
READAHEAD_FIELDS = {
    "page_cache_sync_ra": ("dev", "ino", "index", "req_count", "order", "size", "async_size",
                           "ra_pages", "mmap_miss", "prev_pos"),
    "page_cache_async_ra": ("dev", "ino", "index", "req_count", "order", "size", "async_size",
                            "ra_pages", "mmap_miss", "prev_pos"),
    "page_cache_ra_order": ("dev", "ino", "index", "order", "size", "async_size", "ra_pages"),
    "page_cache_ra_unbounded": ("dev", "ino", "index", "nr_to_read", "lookahead_size"),
}
BLOCK_EVENTS = ("block_rq_issue", "block_rq_complete")
# include/trace/events/filemap.h: a folio added to or deleted from the page cache
# ("dev 8:0 ino 1a pfn=0x4a2c0 ofs=65536 order=2", its offset in bytes) and a read's range
# (mm_filemap_get_pages: "dev=8:0 ino=1a ofs=0-65535", bytes, the last one included)
FOLIO_EVENTS = ("mm_filemap_add_to_page_cache", "mm_filemap_delete_from_page_cache")
FOLIO = re.compile(r"^dev (?P<major>\d+):(?P<minor>\d+) ino (?P<ino>[0-9a-f]+) "
                   r"pfn=0x[0-9a-f]+ ofs=(?P<ofs>\d+) order=(?P<order>\d+)$")
RANGE = re.compile(r"^dev=(?P<major>\d+):(?P<minor>\d+) ino=(?P<ino>[0-9a-f]+) "
                   r"ofs=(?P<start>\d+)-(?P<end>\d+)$")
PAGE = 4096
# "  lrrun-141     [000] .....     8.052995: page_cache_sync_ra: dev=8:0 ..."
PREFIX = re.compile(r"^\s*(?P<task>.+?)-(?P<pid>\d+)\s+\[(?P<cpu>\d+)\]\s+(?P<flags>\S+)\s+"
                    r"(?P<ts>\d+\.\d+): ")
EVENT = re.compile(r"^(?P<name>[a-z_]+): (?P<rest>.*)$")
FIELD = re.compile(r"^(?P<key>[a-z_]+)=(?P<value>\S+)$")
# block_rq_issue: "8,0 RA 212992 () 1215376 + 416 be,0,4 [lrrun]" (Linux) or
# "8,0 R 212992 () 1215376 + 416 [sda]" (lookahead); _complete: "8,0 RA () 1215376 + 416 ..."
BLOCK = re.compile(r"^(?P<major>\d+),(?P<minor>\d+) (?P<rwbs>[A-Z]+) (?:(?P<bytes>\d+) )?"
                   r"\((?P<cmd>[^)]*)\) (?P<sector>\d+) \+ (?P<nr>\d+)(?: (?P<tail>.*))?$")


class TraceError(Exception):
    """A line that is not one of the events this module knows, with its file and line."""


def _int(text, hexa=False):
    if not re.fullmatch(r"-?[0-9a-f]+" if hexa else r"-?\d+", text):
        raise ValueError("%r is not a%s number" % (text, " hex" if hexa else ""))
    return int(text, 16 if hexa else 10)


def parse_line(line):
    """One event line as a dict (name, the fields as numbers, and for block events
    sector, nr and rwbs), or None for a comment or an empty line; ValueError when
    the line is neither."""
    line = line.rstrip("\n")
    if not line.strip() or line.lstrip().startswith("#"):
        return None
    m = PREFIX.match(line)
    if m:
        line = line[m.end():]
    m = EVENT.match(line)
    if not m:
        raise ValueError("not an event line (\"NAME: FIELDS\")")
    name, rest = m.group("name"), m.group("rest")
    if name in READAHEAD_FIELDS:
        want = READAHEAD_FIELDS[name]
        words = rest.split(" ")
        if len(words) != len(want):
            raise ValueError("%s has %d fields, not the %d it prints (%s)" %
                             (name, len(words), len(want), " ".join(want)))
        ev = {"name": name}
        for w, key in zip(words, want):
            f = FIELD.match(w)
            if not f or f.group("key") != key:
                raise ValueError("%s: %r where %s= belongs" % (name, w, key))
            value = f.group("value")
            try:
                if key == "dev":
                    major, colon, minor = value.partition(":")
                    if not colon:
                        raise ValueError("%r is not MAJOR:MINOR" % value)
                    ev["dev"] = (_int(major), _int(minor))
                else:
                    ev[key] = _int(value, hexa=key == "ino")
            except ValueError as e:
                raise ValueError("%s: %s=: %s" % (name, key, e))
        return ev
    if name in BLOCK_EVENTS:
        b = BLOCK.match(rest)
        if not b:
            raise ValueError("%s: %r is not \"MAJOR,MINOR RWBS [BYTES] (CMD) SECTOR + NR\"" %
                             (name, rest))
        return {"name": name, "dev": (int(b.group("major")), int(b.group("minor"))),
                "rwbs": b.group("rwbs"), "sector": int(b.group("sector")),
                "nr": int(b.group("nr"))}
    if name in FOLIO_EVENTS:
        f = FOLIO.match(rest)
        if not f:
            raise ValueError("%s: %r is not \"dev MAJOR:MINOR ino INO pfn=0xPFN ofs=BYTES "
                             "order=N\"" % (name, rest))
        return {"name": name, "dev": (int(f.group("major")), int(f.group("minor"))),
                "ino": int(f.group("ino"), 16), "index": int(f.group("ofs")) // PAGE,
                "order": int(f.group("order"))}
    if name == "mm_filemap_get_pages":
        r = RANGE.match(rest)
        if not r or int(r.group("end")) < int(r.group("start")):
            raise ValueError("%s: %r is not \"dev=MAJOR:MINOR ino=INO ofs=START-END\"" %
                             (name, rest))
        return {"name": name, "dev": (int(r.group("major")), int(r.group("minor"))),
                "ino": int(r.group("ino"), 16), "index": int(r.group("start")) // PAGE,
                "last": int(r.group("end")) // PAGE}
    raise ValueError("%s is not a readahead, block or page-cache event" % name)


def parse_text(text, where="<trace>"):
    """Every event of @text, in order; TraceError naming @where and the line."""
    events = []
    for n, line in enumerate(text.split("\n"), 1):
        try:
            ev = parse_line(line)
        except ValueError as e:
            raise TraceError("%s:%d: %s" % (where, n, e))
        if ev:
            ev["line"] = n
            events.append(ev)
    return events


def parse(path):
    try:
        with open(path, errors="strict") as f:
            text = f.read()
    except UnicodeDecodeError as e:
        raise TraceError("%s: not text (%s)" % (path, e))
    return parse_text(text, path)


def key(ev):
    """What must be equal for two events to be the same decision (the line aside)."""
    return tuple(sorted((k, v) for k, v in ev.items() if k != "line"))


def show(ev):
    """An event as the kernel prints it (block events: the fields compared)."""
    if ev["name"] in READAHEAD_FIELDS:
        out = []
        for k in READAHEAD_FIELDS[ev["name"]]:
            v = ev[k]
            out.append("%s=%s" % (k, "%d:%d" % v if k == "dev" else
                                  "%x" % v if k == "ino" else v))
        return "%s: %s" % (ev["name"], " ".join(out))
    return "%s: %d,%d %s %d + %d" % (ev["name"], ev["dev"][0], ev["dev"][1], ev["rwbs"],
                                     ev["sector"], ev["nr"])


def readahead_of(events, inodes):
    """The readahead events of the files @inodes (a set of inode numbers)."""
    return [e for e in events if e["name"] in READAHEAD_FIELDS and e["ino"] in inodes]


def requests_after(events, inodes):
    """The block requests issued from the first readahead event of @inodes on: a
    workload's own I/O, its files' indirect blocks included."""
    out, started = [], False
    for e in events:
        if e["name"] in READAHEAD_FIELDS and e["ino"] in inodes:
            started = True
        elif started and e["name"] == "block_rq_issue":
            out.append(e)
    return out


def block_aggregates(requests):
    """What @requests (block_rq_issue events) read: how many, their mean size in KiB, the
    pages read (sectors / 8) and the pages read more than once ("refaulted": read again
    after their eviction; the same count whoever evicted them)."""
    sectors, seen = 0, set()
    for e in requests:
        sectors += e["nr"]
        seen.update(range(e["sector"], e["sector"] + e["nr"]))
    n = len(requests)
    return {"requests": n, "request_kb": round(sectors / 2 / n, 1) if n else 0.0,
            "pages_read": sectors // 8, "refaulted": (sectors - len(seen)) // 8}


def folio_aggregates(events, inodes):
    """From the page cache's events of @inodes: the pages added (a read-only workload adds
    only through readahead) and those deleted before any read reached them (evicted
    unread: added, then deleted with no mm_filemap_get_pages over them in between)."""
    added, unread, fresh = 0, 0, set()
    for e in events:
        if e.get("ino") not in inodes:
            continue
        if e["name"] == "mm_filemap_add_to_page_cache":
            n = 1 << e["order"]
            added += n
            fresh.update((e["ino"], i) for i in range(e["index"], e["index"] + n))
        elif e["name"] == "mm_filemap_get_pages":
            fresh.difference_update((e["ino"], i) for i in range(e["index"], e["last"] + 1))
        elif e["name"] == "mm_filemap_delete_from_page_cache":
            for i in range(e["index"], e["index"] + (1 << e["order"])):
                if (e["ino"], i) in fresh:
                    unread += 1
                    fresh.discard((e["ino"], i))
    return {"pages_read_ahead": added, "evicted_unread": unread}


def aggregates(events, inodes):
    """A run under memory pressure in numbers (tools/linux-ref's comparison by aggregates):
    the readahead events of @inodes, the block requests from the first of them on, and,
    when the trace has the page cache's events, what folio_aggregates() counts."""
    ra = readahead_of(events, inodes)
    out = {"ra_events": len(ra)}
    out.update(block_aggregates(requests_after(events, inodes)))
    if any(e["name"] in FOLIO_EVENTS for e in events):
        out.update(folio_aggregates(events, inodes))
    return out


def compare(linux, ours, context=10):
    """Line @linux's and @ours's readahead events up: how many, how many the same
    from the start, and at the first difference the @context events before it on
    each side."""
    n = 0
    while n < min(len(linux), len(ours)) and key(linux[n]) == key(ours[n]):
        n += 1
    same = n == len(linux) == len(ours)
    rep = {"linux": len(linux), "ours": len(ours), "matched": n, "identical": same}
    if not same:
        lo = max(0, n - context)
        rep["before_linux"] = [show(e) for e in linux[lo:n]]
        rep["before_ours"] = [show(e) for e in ours[lo:n]]
        rep["linux_next"] = show(linux[n]) if n < len(linux) else None
        rep["ours_next"] = show(ours[n]) if n < len(ours) else None
    return rep


def compare_requests(linux, ours):
    """The block requests of both sides as (sector, sectors): how many are the same
    request, and whether the same sectors were read at all (request boundaries
    depend on where Linux's page allocator put the pages and on its plugging)."""
    a = sorted((e["sector"], e["nr"]) for e in linux)
    b = sorted((e["sector"], e["nr"]) for e in ours)
    common, i, j = 0, 0, 0
    while i < len(a) and j < len(b):
        if a[i] == b[j]:
            common, i, j = common + 1, i + 1, j + 1
        elif a[i] < b[j]:
            i += 1
        else:
            j += 1

    def sectors(reqs):
        s = set()
        for start, nr in reqs:
            s.update(range(start, start + nr))
        return s

    sa, sb = sectors(a), sectors(b)
    return {"linux": len(a), "ours": len(b), "same_request": common,
            "in_order": [(e["sector"], e["nr"]) for e in linux] ==
                        [(e["sector"], e["nr"]) for e in ours],
            "sectors_same": sa == sb, "sectors_only_linux": len(sa - sb),
            "sectors_only_ours": len(sb - sa)}
