"""Numba kernels of Knuth's Algorithm X with dancing links, in the DLX1 array layout.

This is the sequential memory layout of Knuth, TAOCP 7.2.2.1 ("Dancing links", Algorithm X
and the program DLX1). With ``N`` items:

* Item headers ``1..N`` (item ``k`` of the caller is header ``k + 1``) are doubly linked by
  ``LLINK``/``RLINK`` (arrays of length ``N + 2``). The primary items form a circular list
  headed by the root ``0``; the secondary items form their own circular list headed by
  ``N + 1``, so they are never chosen for branching but are covered like any other item.
* Nodes live in flat ``int32`` arrays ``TOP``/``ULINK``/``DLINK``. Nodes ``1..N`` are the
  item headers: ``TOP`` holds their ``LEN`` and ``ULINK``/``DLINK`` close their vertical
  lists. Node ``0`` is not a node; ``TOP(0)`` holds the number of primary items.
* Node ``N + 1`` is the first *spacer*; each option's nodes follow consecutively, and each
  option is followed by a spacer. The spacer after option ``k`` has ``TOP = -(k + 1)``
  (the first spacer has ``TOP = 0``), ``ULINK`` = first node of the preceding option and
  ``DLINK`` = last node of the following option, so walking an option cyclically is
  "``p + 1`` until a spacer, then jump by ``ULINK``".

One departure from DLX1 makes step X3 fast: cover(i) adds ``COVERED`` (2**29) to ``LEN(i)``
and uncover(i) takes it away (a covered item's LEN never changes while it is covered). The
MRV choice then scans ``TOP[1..N1]`` as a plain array instead of chasing ``RLINK``; since
uncovering restores the list order, the first minimum is the same item Knuth's loop over the
active list picks. The item lists are still maintained (X2 tests ``RLINK(0) = 0``).

The search is *resumable*: :func:`search` keeps the level and the step it stopped at in a
``state`` array and returns after each solution, so callers produce solutions lazily and
counting needs no list of solutions. Every function runs unchanged as plain Python when
``NUMBA_DISABLE_JIT=1``.

Examples
--------
>>> import numpy as np
>>> links = build_links(2, 2, np.array([0, 1, 2, 4]), np.array([0, 1, 0, 1], np.int32))
>>> llink, rlink, top, ulink, dlink, spacers = links
>>> top[1:3].tolist()                 # LEN of the two items
[2, 2]
>>> top[spacers].tolist()             # 0, then -(k + 1) after option k
[0, -1, -2, -3]
>>> state = np.array([0, STEP_ENTER, 0], np.int64)
>>> x, stats = np.zeros(3, np.int32), np.zeros(2, np.int64)
>>> results = [search(llink, rlink, top, ulink, dlink, x, state, stats, -1) for _ in range(3)]
>>> results                           # two solutions ({0, 1} and {2}), then done
[1, 1, 0]
"""

from __future__ import annotations

from .._accel.numba_cache import njit
from . import dlx_layout

__all__ = ["build_links", "search", "solve_batch", "cover_preselected", "options_of",
           "STEP_ENTER", "STEP_DONE"]

from .dlx_layout import (  # noqa: F401  (the step codes: for the callers of search)
    COVERED,
    STEP_AGAIN,
    STEP_BACK,
    STEP_DONE,
    STEP_ENTER,
    STEP_LEAVE,
    STEP_TRY,
)


def build_links(num_items, num_primary, starts, items):
    """:func:`sudokit.solvers.dlx_layout.build_links` filled by :func:`_fill_links`."""
    return dlx_layout.build_links(num_items, num_primary, starts, items, _fill_links)


@njit
def _fill_links(n, num_primary, starts, items, llink, rlink, top, ulink, dlink, spacers):
    """X1: item rings (primary around 0, secondary around n + 1), then the options in order,
    each appended at the bottom of its items' vertical lists, with a spacer before each and
    one after the last (TOP(spacer) = -k; ULINK to the previous option's first node, DLINK to
    the next option's last node, as in DLX1)."""
    prev = 0
    for i in range(1, num_primary + 1):
        rlink[prev] = i
        llink[i] = prev
        prev = i
    rlink[prev] = 0
    llink[0] = prev
    prev = n + 1
    for i in range(num_primary + 1, n + 1):
        rlink[prev] = i
        llink[i] = prev
        prev = i
    rlink[prev] = n + 1
    llink[n + 1] = prev
    for i in range(1, n + 1):
        ulink[i] = i
        dlink[i] = i
    num_options = len(starts) - 1
    spacer = n + 1
    for k in range(num_options + 1):
        spacers[k] = spacer
        top[spacer] = -k
        if k == num_options:
            break
        length = starts[k + 1] - starts[k]
        for t in range(length):
            q = spacer + 1 + t
            i = items[starts[k] + t] + 1
            top[q] = i
            top[i] += 1                               # LEN(i)
            above = ulink[i]                          # append q at the bottom of item i
            ulink[q] = above
            dlink[q] = i
            dlink[above] = q
            ulink[i] = q
        following = spacer + length + 1
        dlink[spacer] = spacer + length               # last node of this option
        ulink[following] = spacer + 1                 # first node of the previous option
        spacer = following
    top[0] = num_primary


@njit
def hide(p, top, ulink, dlink):
    """hide(p): unlink the other nodes of p's option from their items; return the updates."""
    updates = 0
    q = p + 1
    while q != p:
        x = top[q]
        u = ulink[q]
        d = dlink[q]
        if x <= 0:
            q = u                      # spacer: back to the first node of this option
        else:
            dlink[u] = d
            ulink[d] = u
            top[x] -= 1                # LEN(x) <- LEN(x) - 1
            updates += 1
            q += 1
    return updates


@njit
def unhide(p, top, ulink, dlink):
    """unhide(p): the exact inverse of hide(p), walking the option the other way."""
    q = p - 1
    while q != p:
        x = top[q]
        u = ulink[q]
        d = dlink[q]
        if x <= 0:
            q = d                      # spacer: on to the last node of this option
        else:
            dlink[u] = q
            ulink[d] = q
            top[x] += 1
            q -= 1


@njit
def cover(i, llink, rlink, top, ulink, dlink):
    """cover(i): hide every option of item i, then unlink i from its item list."""
    updates = 1
    p = dlink[i]
    while p != i:
        updates += hide(p, top, ulink, dlink)
        p = dlink[p]
    left = llink[i]
    right = rlink[i]
    rlink[left] = right
    llink[right] = left
    top[i] += COVERED
    return updates


@njit
def uncover(i, llink, rlink, top, ulink, dlink):
    """uncover(i): relink i into its item list, then unhide its options bottom-up."""
    left = llink[i]
    right = rlink[i]
    rlink[left] = i
    llink[right] = i
    top[i] -= COVERED
    p = ulink[i]
    while p != i:
        unhide(p, top, ulink, dlink)
        p = ulink[p]


@njit
def search(llink, rlink, top, ulink, dlink, x, state, stats, max_nodes):
    """Run Algorithm X from ``state`` until the next solution, the end, or the node budget.

    ``state`` is ``[l, step, flag]`` (int64) and ``x`` the stack of chosen nodes. Returns 1 at
    a solution (``x[0..l-1]``; the next call resumes at X8), 0 when the search is over, -1
    when ``stats[0]`` (nodes) reached ``max_nodes`` (``-1``: no budget; resumable at X2).
    ``stats[1]`` counts link updates made by cover and hide.
    """
    level = state[0]
    step = state[1]
    nodes = stats[0]
    updates = stats[1]
    n = len(llink) - 2
    n1 = top[0]
    result = 0
    while step != STEP_DONE:
        if step == STEP_ENTER:                        # X2 [Enter level l]
            if max_nodes >= 0 and nodes >= max_nodes:
                result = -1
                break
            nodes += 1
            if rlink[0] == 0:                         # all primary items covered: visit
                step = STEP_LEAVE
                result = 1
                break
            best = 1                                  # X3 [Choose i]: MRV, first on ties;
            best_len = top[1]
            for p in range(2, n1 + 1):                # covered items have LEN >= COVERED
                if top[p] < best_len:
                    best = p
                    best_len = top[p]
            updates += cover(best, llink, rlink, top, ulink, dlink)   # X4 [Cover i]
            x[level] = dlink[best]
            step = STEP_TRY
        elif step == STEP_TRY:                        # X5 [Try x_l]
            xl = x[level]
            if xl <= n:                               # x_l = i: no option left
                step = STEP_BACK
            else:
                p = xl + 1
                while p != xl:                        # cover the other items of x_l
                    j = top[p]
                    if j <= 0:
                        p = ulink[p]
                    else:
                        updates += cover(j, llink, rlink, top, ulink, dlink)
                        p += 1
                level += 1
                step = STEP_ENTER
        elif step == STEP_AGAIN:                      # X6 [Try again]
            xl = x[level]
            p = xl - 1
            while p != xl:                            # uncover them in reverse order
                j = top[p]
                if j <= 0:
                    p = dlink[p]
                else:
                    uncover(j, llink, rlink, top, ulink, dlink)
                    p -= 1
            x[level] = dlink[xl]                      # i = TOP(x_l); x_l <- DLINK(x_l)
            step = STEP_TRY
        elif step == STEP_BACK:                       # X7 [Backtrack]: x_l = i
            uncover(x[level], llink, rlink, top, ulink, dlink)
            step = STEP_LEAVE
        else:                                         # X8 [Leave level l]
            if level == 0:
                step = STEP_DONE
                break
            level -= 1
            step = STEP_AGAIN
    state[0] = level
    state[1] = step
    stats[0] = nodes
    stats[1] = updates
    return result


@njit
def unwind(llink, rlink, top, ulink, dlink, x, state):
    """Undo levels ``l-1..0`` of a search stopped at X2 or X8 (X6's uncovering, then X7)."""
    for level in range(state[0] - 1, -1, -1):
        xl = x[level]
        p = xl - 1
        while p != xl:
            j = top[p]
            if j <= 0:
                p = dlink[p]
            else:
                uncover(j, llink, rlink, top, ulink, dlink)
                p -= 1
        uncover(top[xl], llink, rlink, top, ulink, dlink)
    state[0] = 0
    state[1] = STEP_DONE


@njit
def option_of(q, top):
    """The option index of node q: walk right to the spacer that ends its option."""
    while top[q] > 0:
        q += 1
    return -top[q] - 1


@njit
def options_of(x, level, top, out):
    """Write the option indices of ``x[0..level-1]`` into ``out``; return how many."""
    for k in range(level):
        out[k] = option_of(x[k], top)
    return level


@njit
def cover_preselected(llink, rlink, top, ulink, dlink, spacers, pre, mark):
    """Cover every item of the options ``pre``; return 0 (and change nothing) if they clash.

    Two preselected options that share an item (or one listed twice) leave no solution.
    ``mark`` is a zeroed int8 scratch array of length ``N + 2``; it is zero again on return.
    Returns the number of link updates plus one, so that success is always positive.
    """
    ok = True
    for k in pre:
        for q in range(spacers[k] + 1, spacers[k + 1]):
            if mark[top[q]] != 0:
                ok = False
            mark[top[q]] = 1
    for k in pre:
        for q in range(spacers[k] + 1, spacers[k + 1]):
            mark[top[q]] = 0
    if not ok:
        return 0
    updates = 1
    for k in pre:
        for q in range(spacers[k] + 1, spacers[k + 1]):
            updates += cover(top[q], llink, rlink, top, ulink, dlink)
    return updates


@njit
def uncover_preselected(llink, rlink, top, ulink, dlink, spacers, pre):
    """Undo :func:`cover_preselected`: uncover the items in exactly the reverse order."""
    for t in range(len(pre) - 1, -1, -1):
        k = pre[t]
        for q in range(spacers[k + 1] - 1, spacers[k], -1):
            uncover(top[q], llink, rlink, top, ulink, dlink)


@njit
def solve_one(llink, rlink, top, ulink, dlink, spacers, x, state, stats, mark,
              pre, limit, max_nodes, row):
    """Count the covers extending ``pre`` up to ``limit``; the first one goes into ``row``.

    The structure is restored exactly before returning. ``state[2]`` is set to 1 when the
    node budget ran out (the count is then a lower bound).
    """
    state[2] = 0
    done = cover_preselected(llink, rlink, top, ulink, dlink, spacers, pre, mark)
    if done == 0:
        return 0
    stats[1] += done - 1
    state[0] = 0
    state[1] = STEP_ENTER
    count = 0
    while count < limit:
        result = search(llink, rlink, top, ulink, dlink, x, state, stats, max_nodes)
        if result == 1:
            if count == 0:
                width = len(row)
                for t in range(len(pre)):
                    if t < width:
                        row[t] = pre[t]
                for t in range(state[0]):
                    if len(pre) + t < width:
                        row[len(pre) + t] = option_of(x[t], top)
            count += 1
        elif result == 0:
            break
        else:
            state[2] = 1
            break
    unwind(llink, rlink, top, ulink, dlink, x, state)
    uncover_preselected(llink, rlink, top, ulink, dlink, spacers, pre)
    return count


@njit
def solve_batch(llink, rlink, top, ulink, dlink, spacers, x, stats, mark,
                pre_starts, pre_options, begin, limit, max_nodes, max_call, counts, firsts,
                unknown, state):
    """:func:`solve_one` for each preselected set ``pre_options[pre_starts[p]:...]`` from
    set ``begin`` on; returns the set after the last one done.

    ``max_nodes`` is the node budget of each set (-1: none); a set that runs out gets
    ``unknown[p] = 1`` and its count so far (a lower bound). ``max_call`` bounds the call:
    it stops after the set at which its nodes reach ``max_call`` (-1: every set), so a call
    is a bounded amount of work and the caller can give out the sets decided so far.
    ``state``: three int64 of scratch (the caller's: the kernel allocates nothing, so it
    also runs without numba).
    """
    started = stats[0]
    for p in range(begin, len(counts)):
        pre = pre_options[pre_starts[p]:pre_starts[p + 1]]
        budget = -1 if max_nodes < 0 else stats[0] + max_nodes
        counts[p] = solve_one(llink, rlink, top, ulink, dlink, spacers, x, state, stats,
                              mark, pre, limit, budget, firsts[p])
        unknown[p] = state[2]
        if max_call >= 0 and stats[0] - started >= max_call:
            return p + 1
    return len(counts)


@njit
def count_slice(llink, rlink, top, ulink, dlink, x, state, stats, limit, max_nodes, row,
                found):
    """Go on counting from ``state`` until ``found[0]`` reaches ``limit``, the search ends, or
    ``stats[0]`` reaches ``max_nodes``; the first cover's options go into ``row``.

    Returns 1 at the limit, 0 when the search is over, -1 when the node budget ended this
    slice (the search resumes at X2 on the next call). No Python runs per solution.
    """
    while found[0] < limit:
        result = search(llink, rlink, top, ulink, dlink, x, state, stats, max_nodes)
        if result == 1:
            if found[0] == 0:
                options_of(x, state[0], top, row)
            found[0] += 1
        elif result == 0:
            return 0
        else:
            return -1
    return 1
