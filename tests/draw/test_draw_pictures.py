"""The pictures of the docs pages (docs/pictures/*.svg) are what ``sudokit draw`` makes now."""

import importlib.util
import re
import xml.etree.ElementTree as ET

import pytest

from ..helpers import ROOT, doc_pages

PICTURES = ROOT / "docs" / "pictures"


def _maker():
    spec = importlib.util.spec_from_file_location("make_pictures",
                                                  PICTURES / "make_pictures.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_committed_pictures_are_up_to_date():
    maker = _maker()
    stale = maker.stale()
    assert not stale, f"stale pictures {stale}: run python docs/pictures/make_pictures.py"
    assert maker.main(["--check"]) == 0


def test_every_picture_is_on_a_docs_page_and_parses():
    maker = _maker()
    shown = set()
    for page in doc_pages():
        for link in re.findall(r"\]\(([\w./-]+\.svg)\)", page.read_text()):
            path = (page.parent / link).resolve()
            assert path.exists(), (page, link)
            if path.parent == PICTURES:
                shown.add(path.name)
    assert shown == set(maker.PICTURES)
    for name in maker.PICTURES:
        ET.parse(PICTURES / name)
    assert set(p.name for p in PICTURES.glob("*.svg")) == set(maker.PICTURES)


def test_check_fails_on_a_stale_picture(tmp_path, monkeypatch):
    maker = _maker()
    monkeypatch.setattr(maker, "HERE", tmp_path)
    name = next(iter(maker.PICTURES))
    (tmp_path / name).write_text((PICTURES / name).read_text().replace("#000", "#001", 1))
    assert name in maker.stale()
    assert maker.main(["--check"]) == 1


@pytest.mark.parametrize("name", ["six-solution.svg"])
def test_a_picture_shows_what_its_command_says(name):
    root = ET.parse(PICTURES / name).getroot()
    texts = [e for e in root.iter("{http://www.w3.org/2000/svg}text")]
    assert len(texts) == 36 and {e.get("class") for e in texts} == {"given", "filled"}
