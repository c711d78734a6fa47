"""This computer's device id: made once, kept outside the library, overridable."""

from __future__ import annotations

import json

import pytest

from reader.store import device


@pytest.fixture
def config(monkeypatch, tmp_path):
    monkeypatch.delenv(device.ENV_VAR, raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return tmp_path / "config" / "paper-reader" / "device.json"


def test_made_once_and_kept_in_the_config_folder(config):
    first = device.device_id()
    assert device.valid(first)
    assert json.loads(config.read_text()) == {"id": first}
    assert device.device_id() == first  # the next start: the same device


def test_a_damaged_config_file_gives_a_new_id(config):
    config.parent.mkdir(parents=True)
    config.write_text("{not json")
    made = device.device_id()
    assert device.valid(made)
    assert device.device_id() == made


def test_the_environment_overrides_it(config, monkeypatch):
    monkeypatch.setenv(device.ENV_VAR, "laptop-2")
    assert device.device_id() == "laptop-2"
    assert not config.exists()


@pytest.mark.parametrize("bad", ["../x", "a/b", ".hidden", "x" * 65, "a b", "é"])
def test_an_id_that_is_no_plain_folder_name_is_refused(config, monkeypatch, bad):
    monkeypatch.setenv(device.ENV_VAR, bad)
    with pytest.raises(ValueError):
        device.device_id()
