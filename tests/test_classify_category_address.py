"""A way to reach someone or something (a link, an e-mail address, a phone number) is read by the categories as
lookup material whatever the line is about, as the real model and the shipped read-out decide it."""

from __future__ import annotations

from engram import Memory


def test_a_line_with_an_address_is_lookup_material(real: Memory) -> None:
    """Read for its topic alone, the plumber's line was a person in the user's life (interactions) and the set
    lists' link undecided; the address mark, weighed by how often each category's seeds carry one, makes both
    references."""
    lines = [
        "The plumber who fixed the boiler last winter: Ahmed, ahmed.plumbing@example.net",
        "Where the band posts its set lists: https://drive.example.org/band/setlists",
    ]
    categories = real._classifiers.categories
    for text in lines:
        vector, opened = real._classifiers.openings.embed_batch([text, categories.opening(text) or ""])
        assert categories.decide(vector, [], opened).label != "references"  # the topic alone
        assert real.store_memory(text)["analysis"]["detected_category"] == "references", text
    readout = categories.readout
    assert readout is not None and readout.forms[0] == "address"
    assert readout.likelihoods is not None
    share = dict(zip(readout.labels, readout.likelihoods[:, 0], strict=True))
    assert share["references"] == max(share.values())
