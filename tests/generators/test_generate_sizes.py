"""The generators refuse a size that needs more memory than allowed, before building it."""

from __future__ import annotations

import numpy as np
import pytest

from sudokit.errors import ResourceError
from sudokit.generators import planted_precoloring, qcp, qwh
from sudokit.generators.latin import random_latin_square
from sudokit.generators.sizes import coloring_bytes, latin_bytes


def test_planted_precoloring_checks_its_size():
    rng = np.random.default_rng(0)
    limit = coloring_bytes(300, 4, 0.2) - 1
    with pytest.raises(ResourceError, match="300 vertices"):
        planted_precoloring(300, 4, 0.2, 0.0, rng, max_memory=limit)
    graph, _ = planted_precoloring(299, 4, 0.2, 0.0, rng, max_memory=limit)
    assert graph.num_vertices == 299


@pytest.mark.parametrize("make, method", [
    (lambda n, limit: qwh(n, 0.5, np.random.default_rng(1), max_memory=limit),
     "jacobson-matthews"),
    (lambda n, limit: random_latin_square(n, np.random.default_rng(1), "shuffle",
                                          max_memory=limit), "shuffle"),
    (lambda n, limit: qcp(n, 0.5, np.random.default_rng(1), max_memory=limit), "shuffle"),
])
def test_the_latin_generators_check_their_order(make, method):
    limit = latin_bytes(40, method) - 1
    with pytest.raises(ResourceError, match="order 40"):
        make(40, limit)
    assert make(39, limit) is not None


def test_the_estimates_grow_with_the_request():
    assert coloring_bytes(10**9, 3, 0.1) > 2**60
    assert latin_bytes(255) > 500 * 2**20 > latin_bytes(255, "shuffle")
