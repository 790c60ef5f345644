"""Chromatic numbers and clique-fixing symmetry breaking (issue 17, section 3).

Every coloring reported is checked here, independently of the library: colors in range, no
edge with equal ends, on edges read from the file by a parser of this module. Every proved
value must equal GROUND_TRUTH.md's, and every interval must contain it.
"""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokit.chromatic import ChromaticResult, chromatic_number
from sudokit.encoders import coloring_to_cnf, completion_to_cnf
from sudokit.encoders.coloring_symmetry import color_symmetry
from sudokit.errors import (
    EXIT_INVALID_INPUT,
    EXIT_OK,
    EXIT_OUTPUT,
    EXIT_UNKNOWN,
    EXIT_UNREADABLE,
    EXIT_USAGE,
    InstanceError,
)
from sudokit.formats import read_instances
from sudokit.graphs import dsatur, extend_greedily, is_clique, large_clique, peel
from sudokit.instances import precoloring
from sudokit.solvers import Budget, count_solutions, solve

from .helpers import (
    EXAMPLES,
    brute_force_count,
    budget_cpu_bound,
    cpu_seconds,
    data_path,
    small_precolorings,
)
from .helpers import assert_cli_error as assert_error
from .helpers import cli_run as run

MYCIEL3 = EXAMPLES / "myciel3-precolored.col"
FOLDERS = ("original_trick_rzepinskip", "original_gc_wvcp_instances", "heule_normalized")

#: ../shared/data/GROUND_TRUTH.md, section 3: chi, or (LB, UB) where chi is open; every graph
#: of ../shared/data/coloring the table lists (queen16_16, k-FullIns_4/5, k-Insertions_4+,
#: abb313GPIA, ash608/958GPIA and flat300_20/26 are not in it)
GROUND_TRUTH: dict[str, int | tuple[int, int]] = {
    "myciel3": 4, "myciel4": 5, "myciel5": 6, "myciel6": 7, "myciel7": 8,
    "queen5_5": 5, "queen6_6": 7, "queen7_7": 7, "queen8_8": 9, "queen8_12": 12,
    "queen9_9": 10, "queen10_10": 11, "queen11_11": 11, "queen12_12": 12, "queen13_13": 13,
    "queen14_14": 14, "queen15_15": 15,
    "anna": 11, "david": 11, "huck": 11, "jean": 10, "homer": 13, "games120": 9,
    "miles250": 8, "miles500": 20, "miles750": 31, "miles1000": 42, "miles1500": 73,
    "mulsol.i.1": 49, "mulsol.i.2": 31, "mulsol.i.3": 31, "mulsol.i.4": 31, "mulsol.i.5": 31,
    "zeroin.i.1": 49, "zeroin.i.2": 30, "zeroin.i.3": 30,
    "fpsol2.i.1": 65, "fpsol2.i.2": 30, "fpsol2.i.3": 30,
    "inithx.i.1": 54, "inithx.i.2": 31, "inithx.i.3": 31,
    "le450_5a": 5, "le450_5b": 5, "le450_5c": 5, "le450_5d": 5,
    "le450_15a": 15, "le450_15b": 15, "le450_15c": 15, "le450_15d": 15,
    "le450_25a": 25, "le450_25b": 25, "le450_25c": 25, "le450_25d": 25,
    "school1": 14, "school1_nsh": 14,
    "DSJC125.1": 5, "DSJC125.5": 17, "DSJC125.9": 44, "DSJR500.1": 12, "DSJR500.5": 122,
    "DSJR500.1c": 85, "DSJC250.1": (6, 8), "DSJC250.5": (26, 28), "DSJC250.9": 72,
    "DSJC500.1": (9, 12), "DSJC500.5": (43, 47), "DSJC500.9": (123, 126),
    "DSJC1000.1": (10, 20), "flat300_28_0": 28,
    "r125.1": 5, "r125.1c": 46, "r125.5": 36, "r250.1": 8, "r250.1c": 64, "r250.5": 65,
    "r1000.1": 20,
    "1-FullIns_3": 4, "2-FullIns_3": 5, "3-FullIns_3": 6, "4-FullIns_3": 7, "5-FullIns_3": 8,
    "1-Insertions_4": 5, "2-Insertions_3": 4, "3-Insertions_3": 4, "4-Insertions_3": 4,
    "mug88_1": 4, "mug88_25": 4, "mug100_1": 4, "mug100_25": 4,
    "ash331GPIA": 4, "will199GPIA": 7, "qg.order30": 30, "qg.order40": 40,
}

#: proved here in well under a second each (clique = DSatur, or a few quick SAT calls): they
#: must come out proved, with a time limit that leaves a slow machine room
QUICK = ("myciel3", "myciel4", "myciel5", "queen5_5", "queen6_6", "queen7_7", "queen8_12",
         "anna", "david", "huck", "jean", "homer", "games120", "miles250", "miles500",
         "miles750", "miles1000", "miles1500", "mulsol.i.1", "mulsol.i.2", "mulsol.i.3",
         "mulsol.i.4", "mulsol.i.5", "zeroin.i.1", "zeroin.i.2", "zeroin.i.3", "fpsol2.i.1",
         "fpsol2.i.2", "fpsol2.i.3", "inithx.i.1", "inithx.i.2", "inithx.i.3", "le450_25a",
         "le450_25b", "DSJC125.1", "DSJR500.1", "r125.1", "r125.1c", "r250.1", "r1000.1",
         "1-FullIns_3", "2-FullIns_3", "3-FullIns_3", "4-FullIns_3", "5-FullIns_3",
         "2-Insertions_3", "3-Insertions_3", "mug88_1", "mug88_25", "mug100_1", "mug100_25")
QUICK_SECONDS = 20.0
#: the rest get this much each: proved or an interval, never wrong (marked slow)
OTHER_SECONDS = 1.0


def _path(name: str):
    for folder in FOLDERS:
        path = data_path("coloring", folder).joinpath(f"{name}.col")
        if path.exists():
            return path
    raise AssertionError(f"{name}.col is in none of {FOLDERS}")


def _file_graph(path) -> tuple[int, np.ndarray]:
    """``(num_vertices, edges)`` read with this module's own tiny parser (0-based edges;
    ``str.split`` takes any whitespace, as r250.1c.col's stray carriage returns need)."""
    vertices, edges = 0, []
    for line in path.read_bytes().decode().split("\n"):
        fields = line.split()
        if fields and fields[0] == "p":
            vertices = int(fields[2])
        elif fields and fields[0] == "e":
            edges.append((int(fields[1]) - 1, int(fields[2]) - 1))
    return vertices, np.array(edges, dtype=np.int64).reshape(-1, 2)


def _check_coloring(vertices: int, edges: np.ndarray, coloring, colors: int) -> None:
    coloring = np.asarray(coloring)
    assert coloring.shape == (vertices,)
    assert coloring.min(initial=1) >= 1 and coloring.max(initial=0) == colors
    assert not (coloring[edges[:, 0]] == coloring[edges[:, 1]]).any()


def _check_against_truth(name: str, result: ChromaticResult, vertices: int,
                         edges: np.ndarray) -> None:
    truth = GROUND_TRUTH[name]
    low, high = truth if isinstance(truth, tuple) else (truth, truth)
    _check_coloring(vertices, edges, result.coloring, result.upper)
    assert is_clique(edges, result.clique) and len(result.clique) <= result.lower
    assert result.lower <= low and high <= result.upper, (name, result.lower, result.upper)
    if result.status == "proved":
        assert result.lower == result.upper == truth, name
    else:
        assert result.lower < result.upper and result.reason


# -- every graph GROUND_TRUTH.md lists ------------------------------------------------------

def _graph_cases():
    for name in GROUND_TRUTH:
        if name in QUICK:
            yield pytest.param(name, id=name)
        else:
            yield pytest.param(name, id=name, marks=pytest.mark.slow)


@pytest.mark.parametrize("name", list(_graph_cases()))
def test_chromatic_numbers_agree_with_ground_truth(name):
    path = _path(name)
    graph = read_instances(str(path), problem="coloring", colors=1 << 20)[0].instance
    vertices, edges = _file_graph(path)
    assert graph.num_vertices == vertices
    seconds = QUICK_SECONDS if name in QUICK else OTHER_SECONDS
    started = cpu_seconds()
    result = chromatic_number(graph, budget=Budget(seconds=seconds))
    _check_against_truth(name, result, vertices, edges)
    if name in QUICK:
        assert result.status == "proved", (name, result.steps)
    else:  # the budget holds, up to reading the clock between slices (in CPU seconds)
        assert cpu_seconds() - started < budget_cpu_bound(seconds), result.steps


# -- section 3 through the command line ------------------------------------------------------

@pytest.mark.parametrize("name", ["mulsol.i.1", "zeroin.i.1"])
def test_solve_refutes_one_color_fewer_than_the_clique_at_once(name):
    """At once: a single SAT conflict allowed (the clique's colors fixed, the formula is
    refuted by propagation; it was 'unknown' after 120 s before)."""
    path = _path(name)
    result = run("solve", "--colors", "48", "--time-limit", "60", "--conflicts", "1", path)
    assert result.exit_code == EXIT_OK, result.stderr
    assert result.stdout == "no solution\n"
    colored = run("solve", "--colors", "49", path)
    vertices, edges = _file_graph(path)
    _check_coloring(vertices, edges, [int(c) for c in colored.stdout.split()], 49)


@pytest.mark.parametrize("name", ["mulsol.i.1", "zeroin.i.1"])
def test_chromatic_command_proves_49(name):
    result = run("chromatic", _path(name))
    assert result.exit_code == EXIT_OK, result.stderr
    assert result.stdout == "chromatic number 49 (proved: clique 49, coloring 49)\n"


def test_count_is_unchanged_by_clique_fixing():
    # GROUND_TRUTH.md: P(myciel3, 4) = 12480; the example's precolors 1 and 2 on two adjacent
    # vertices leave 12480 / (4 * 3) = 1040 of them
    path = _path("myciel3")
    result = run("count", "--colors", "4", path)
    assert result.exit_code == EXIT_OK, result.stderr
    assert result.stdout.split()[-1] == "12480"
    result = run("count", MYCIEL3)
    assert result.stdout.split()[-1] == "1040"
    graph = read_instances(str(MYCIEL3))[0].instance
    assert count_solutions(completion_to_cnf(graph, "direct")) == 1040
    assert not coloring_to_cnf(graph, symmetry_breaking=True).parsimonious


def test_encode_says_which_clique_is_fixed():
    path = _path("mulsol.i.1")
    text = run("encode", "--colors", "48", path).stdout
    header = [line for line in text.splitlines() if line.startswith("c ")]
    assert any("a clique of 49 free vertices, more than the 48 free colors" in line
               for line in header)
    text = " ".join(line[2:] for line in header)
    fixed = text.split("(vertex:color ", 1)[1].split(")", 1)[0].split()
    pairs = [tuple(map(int, pair.split(":"))) for pair in fixed]
    assert [color for _, color in pairs] == list(range(1, 49))
    vertices, edges = _file_graph(path)
    assert is_clique(edges, [vertex - 1 for vertex, _ in pairs])
    stats = run("encode", "--colors", "48", "--stats", path).stdout
    assert "clique colors" in stats and "symmetry breaking" in stats
    plain = run("encode", "--colors", "48", "--no-symmetry", "--stats", path).stdout
    assert "clique colors" not in plain and "symmetry breaking" not in plain


def test_explain_says_what_was_fixed():
    k4 = precoloring(4, [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)], 4)
    text = coloring_to_cnf(k4, symmetry_breaking=True).explain()
    assert "a clique of 4 free vertices takes the free colors in order" in text
    assert "vertex:color 1:1 2:2 3:3 4:4" in text
    assert "clique" not in coloring_to_cnf(k4).explain()


# -- the chromatic command -------------------------------------------------------------------

def test_chromatic_text_json_coloring_and_stdin():
    vertices, edges = _file_graph(MYCIEL3)
    text = run("chromatic", "--coloring", MYCIEL3)
    assert text.exit_code == EXIT_OK, text.stderr
    first, second = text.stdout.splitlines()
    assert first == "chromatic number 4 (proved: 3 colors refuted, coloring 4)"
    _check_coloring(vertices, edges, [int(c) for c in second.split()], 4)
    result = run("chromatic", "--json", "--coloring", "-", input=MYCIEL3.read_text())
    assert result.exit_code == EXIT_OK, result.stderr
    obj = json.loads(result.stdout)
    assert (obj["status"], obj["chromatic_number"], obj["lower"], obj["upper"]) == \
        ("proved", 4, 4, 4)
    assert obj["reason"] is None and obj["clique"] == 2 and obj["seconds"] >= 0
    assert [step["what"] for step in obj["steps"]][:2] == ["clique", "dsatur"]
    assert obj["steps"][-1]["status"] == "unsat"
    _check_coloring(vertices, edges, obj["coloring"], 4)


def test_chromatic_unknown_within_the_time_limit(tmp_path):
    path = _path("myciel7")
    vertices, edges = _file_graph(path)
    out = tmp_path / "chi.json"
    started = cpu_seconds()
    result = run("chromatic", "--time-limit", "1", "--json", "--coloring", "-o", out, path)
    assert result.exit_code == EXIT_UNKNOWN, result.stderr
    assert cpu_seconds() - started < budget_cpu_bound(1)
    obj = json.loads(out.read_text())
    assert obj["status"] == "unknown" and obj["chromatic_number"] is None
    assert obj["reason"] == "time limit" and obj["lower"] <= 8 <= obj["upper"]
    _check_coloring(vertices, edges, obj["coloring"], obj["upper"])
    text = run("chromatic", "--time-limit", "0.5", path)
    assert text.exit_code == EXIT_UNKNOWN
    assert text.stdout.startswith("chromatic number unknown: between ")
    assert text.stdout.endswith(" (time limit)\n")


def test_chromatic_verbose_reports_steps_on_stderr():
    result = run("chromatic", "-v", MYCIEL3)
    assert result.exit_code == EXIT_OK
    assert result.stderr.splitlines()[0].startswith("chromatic: clique of 2 vertices")
    assert any(line.startswith("chromatic: sat 3 colors: unsat")
               or line.startswith("chromatic: probe 3 colors: unsat")
               for line in result.stderr.splitlines())


@pytest.mark.parametrize("args, code, fragments", [
    (["/nonexistent/g.col"], EXIT_UNREADABLE, ["cannot read /nonexistent/g.col"]),
    (["--solver", "dlx", str(MYCIEL3)], EXIT_USAGE, ["dlx is not a SAT solver"]),
    (["--solver", "lingeling", str(MYCIEL3)], EXIT_USAGE, ["lingeling honours no time budget"]),
    (["--time-limit", "0", str(MYCIEL3)], EXIT_USAGE, ["--time-limit"]),
    (["-o", "/nonexistent/dir/chi.txt", str(MYCIEL3)], EXIT_OUTPUT, ["cannot write"]),
])
def test_chromatic_bad_arguments(args, code, fragments):
    assert_error(run("chromatic", *args), code, *fragments)


@pytest.mark.parametrize("text, fragment", [
    ("p edge 3 1\ne 1 4\n", "<stdin>:2:5: vertex 4 is outside 1..3"),
    ("hello\n", "<stdin>:1:1: unknown line type 'hello'"),
    ("", "empty input"),
])
def test_chromatic_bad_input_is_one_line(text, fragment):
    assert_error(run("chromatic", "-", input=text), EXIT_INVALID_INPUT, fragment)


def test_chromatic_of_graphs_without_edges():
    assert run("chromatic", "-", input="p edge 3 0\n").stdout == \
        "chromatic number 1 (proved: clique 1, coloring 1)\n"
    assert run("chromatic", "-", input="p edge 0 0\n").stdout == \
        "chromatic number 0 (proved: clique 0, coloring 0)\n"


# -- the library -----------------------------------------------------------------------------

def _complete(n):
    return precoloring(n, list(itertools.combinations(range(n), 2)), 1)


PETERSEN = precoloring(10, [(i, (i + 1) % 5) for i in range(5)]
                       + [(i, i + 5) for i in range(5)]
                       + [(5 + i, 5 + (i + 2) % 5) for i in range(5)], 1)


@pytest.mark.parametrize("graph, chi", [
    (_complete(1), 1), (_complete(2), 2), (_complete(6), 6),
    (precoloring(5, [(i, (i + 1) % 5) for i in range(5)], 1), 3),
    (precoloring(6, [(i, (i + 1) % 6) for i in range(6)], 1), 2),
    (PETERSEN, 3),
])
def test_small_graphs(graph, chi):
    result = chromatic_number(graph)
    assert (result.status, result.value) == ("proved", chi)
    _check_coloring(graph.num_vertices, graph.edges, result.coloring, chi)


def _brute_chromatic(graph) -> int:
    for k in range(1, graph.num_vertices + 1):
        if brute_force_count(precoloring(graph.num_vertices, graph.edges, k)):
            return k
    return 0


@settings(max_examples=40, deadline=None)
@given(small_precolorings())
def test_chromatic_number_agrees_with_brute_force(problem):
    result = chromatic_number(problem)
    assert result.status == "proved" and result.value == _brute_chromatic(problem)
    if problem.num_vertices:
        _check_coloring(problem.num_vertices, problem.edges, result.coloring, result.value)


@settings(max_examples=60, deadline=None)
@given(small_precolorings(), st.data())
def test_any_clique_fixing_keeps_satisfiability(problem, data):
    # a random clique (precolored members included) and more free vertices than free colors
    order = data.draw(st.permutations(range(problem.num_vertices)))
    clique: list[int] = []
    adjacent = {(int(u), int(v)) for u, v in problem.edges.tolist()}
    for vertex in order:
        if all((min(vertex, c), max(vertex, c)) in adjacent for c in clique):
            clique.append(vertex)
    expected = brute_force_count(problem) > 0
    encoded = coloring_to_cnf(problem, symmetry_breaking=True, clique=clique)
    solution = solve(encoded)
    assert (solution is not None) == expected
    assert solution is None or problem.is_solution(solution)


def test_a_clique_that_is_not_one_is_refused():
    path3 = precoloring(3, [(0, 1), (1, 2)], 3)
    with pytest.raises(InstanceError, match="not all adjacent"):
        color_symmetry(path3, [0, 2])


def test_budget_gives_an_interval_never_a_wrong_value():
    vertices, edges = _file_graph(_path("myciel6"))
    graph = precoloring(vertices, edges, 1)
    started = cpu_seconds()
    result = chromatic_number(graph, budget=Budget(seconds=0.5))
    assert cpu_seconds() - started < budget_cpu_bound(0.5)
    assert result.status == "unknown" and result.value is None
    assert result.lower <= 7 <= result.upper
    _check_coloring(vertices, edges, result.coloring, result.upper)
    capped = chromatic_number(graph, budget=Budget(conflicts=100))
    assert capped.reason == "conflict limit" and capped.lower <= 7 <= capped.upper


# -- the graph algorithms ----------------------------------------------------------------------

@st.composite
def random_graphs(draw):
    n = draw(st.integers(1, 12))
    pairs = list(itertools.combinations(range(n), 2))
    edges = [pair for pair in pairs if draw(st.booleans())] if pairs else []
    return n, np.array(edges, dtype=np.int64).reshape(-1, 2)


def _max_clique(n, edges) -> int:
    adjacent = {tuple(e) for e in edges.tolist()}
    best = 1
    for size in range(2, n + 1):
        if any(all(pair in adjacent for pair in itertools.combinations(subset, 2))
               for subset in itertools.combinations(range(n), size)):
            best = size
        else:
            break
    return best


@settings(max_examples=80, deadline=None)
@given(random_graphs())
def test_clique_dsatur_and_peeling(graph):
    n, edges = graph
    clique = large_clique(n, edges)
    assert is_clique(edges, clique)
    members = set(clique.tolist())   # maximal: no vertex extends it
    adjacent = {tuple(e) for e in edges.tolist()} | {tuple(e[::-1]) for e in edges.tolist()}
    assert not any(all((v, c) in adjacent for c in members)
                   for v in range(n) if v not in members)
    assert len(clique) <= _max_clique(n, edges)
    colors = dsatur(n, edges)
    _check_coloring(n, edges, colors, int(colors.max()))
    k = len(clique)
    core, removed = peel(n, edges, k)
    partial = np.where(core, colors, 0)
    if colors[core].max(initial=0) <= k:   # a k-coloring of the core extends to the graph
        extended = extend_greedily(n, edges, partial, removed)
        assert extended.max() <= k
        _check_coloring(n, edges, extended, int(extended.max()))


# -- the shared pieces this work touched -------------------------------------------------------

def test_a_fifth_field_on_the_p_line_is_read():
    # original_gc_wvcp_instances/DSJC250.9.col has 'p edge 250 55794 72'
    from sudokit.formats.col import parse_col

    graph = parse_col("p edge 3 2 9\ne 1 2\ne 2 3\n", "g.col", colors=3).instance
    assert graph.num_vertices == 3 and graph.edges.tolist() == [[0, 1], [1, 2]]


@pytest.mark.parametrize("amo", ["pairwise", "seqcounter", "bitwise"])
def test_the_size_estimate_of_a_graph_is_exact_without_building_per_color_arrays(amo):
    from sudokit.encoders.size import completion_cnf_size

    graph = precoloring(6, [(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (4, 5)], 4, {0: 2})
    built = coloring_to_cnf(graph, amo=amo).cnf
    size = completion_cnf_size(graph, "direct", amo)
    if amo == "bitwise":   # PySAT's encodings: an upper bound
        assert size.clauses >= built.num_clauses
    else:
        assert (size.variables, size.clauses) == (built.num_vars, built.num_clauses)
