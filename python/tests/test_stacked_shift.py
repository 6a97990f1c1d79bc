"""The door's accounting for calls that share parameters (a pipeline stage's
microbatches): sizes as the contract reads them, the repeated static bytes,
and the report taken back to what runs (autoac/pytorch/_stacked.py)."""
import pytest

from autoac import AutoacError, parse_size
from autoac.pytorch._stacked import repeated_static, size_bytes, unshifted


def test_size_bytes_reads_the_contracts_sizes():
    assert size_bytes("24GB") == 24 * 10**9
    assert size_bytes("1.5GiB") == 3 * 2**29
    assert size_bytes("3e9") == 3 * 10**9
    assert size_bytes(" 512 kib ") == 512 * 1024
    assert size_bytes(7) == 7
    # not a size: left to the library's own error
    assert size_bytes("lots") is None and size_bytes(None) is None and size_bytes("-1") is None


def test_parse_size_is_the_librarys_parser():
    assert parse_size("24GB") == 24 * 10**9
    with pytest.raises(AutoacError, match="invalid size 'lots'"):
        parse_size("lots")


def test_repeated_static_counts_grads_and_optimizer_state_as_the_contract_does():
    assert repeated_static(100, 80, {}) == 180                       # buffers: grads static
    assert repeated_static(100, 80, {"grads": "assign"}) == 100      # no gradient before the backward
    assert repeated_static(100, 80, {"optimizer": "adam"}) == 100 + 80 + 200
    assert repeated_static(100, 80, {"optimizer": "momentum", "grads": "accumulate"}) == 280


def test_unshifted_takes_the_repeats_off_every_peak_and_the_warning():
    rep = {"peak_bytes": 1500, "static_bytes": 1100, "budget_bytes": 1200,
           "baseline_peak_bytes": {"save-all": 1600},
           "timeline": [{"live_bytes": 1400, "live_after_bytes": 1300}, {"live_bytes": 1500}]}
    warn = "warning: autoac: budget 1200 bytes (1.17 KiB) is below the lowest peak ..., 1500 bytes (1.46 KiB), ..."
    r, w = unshifted(rep, warn, 1000)
    assert (r["peak_bytes"], r["static_bytes"], r["budget_bytes"]) == (500, 100, 200)
    assert r["baseline_peak_bytes"] == {"save-all": 600}
    assert [e["live_bytes"] for e in r["timeline"]] == [400, 500]
    assert r["timeline"][0]["live_after_bytes"] == 300
    assert "budget 200 bytes (200 B)" in w and "1500" not in w and "500 bytes (500 B)" in w
    assert rep["peak_bytes"] == 1500                                 # the input is not changed
    assert unshifted(rep, warn, 0) == (rep, warn)
