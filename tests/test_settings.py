"""grundy.settings: one record of the thresholds, changed for a block and restored after."""
import pytest

from grundy import Solver, settings
from grundy.spec import read_position


def test_override_restores_after_an_error_and_rejects_a_misspelt_name():
    before = settings.current()
    with pytest.raises(RuntimeError):
        with settings.override(native_after=7, pilot=3):
            assert (settings.current().native_after, settings.current().pilot) == (7, 3)
            with settings.override(pilot=4):
                assert (settings.current().native_after, settings.current().pilot) == (7, 4)
            assert settings.current().pilot == 3
            raise RuntimeError("left the block")
    assert settings.current() is before == settings.DEFAULTS
    with pytest.raises(TypeError, match="no setting named 'pilott'"):
        with settings.override(pilott=1):
            pass
    with pytest.raises(AttributeError):           # frozen: only override changes it
        settings.current().native_after = 1      # type: ignore[misc]


def test_the_solver_reads_its_thresholds_when_it_is_made(tune):
    """reduce_after is read when a Solver is made: one made inside the block keeps the value."""
    tune(reduce_after=11)
    assert Solver().ctx.reduce_after == 11
    with settings.override(reduce_after=5):
        assert Solver().ctx.reduce_after == 5
    assert Solver(reduce_after=3).ctx.reduce_after == 3
    pos = read_position({"game": "nim", "heaps": [3, 4]})
    assert Solver().grundy(pos) == 7              # the answers do not depend on the thresholds


def test_grundy_settings_is_reachable_without_importing_it():
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "-c", "import grundy; print(grundy.settings.current().batch_from)"],
                         capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == str(settings.DEFAULTS.batch_from), out.stderr
