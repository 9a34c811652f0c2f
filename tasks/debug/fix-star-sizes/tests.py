"""Tests of fix-star-sizes: the three stars are drawn at their places with sides of 60, 100 and 140
steps (checked corner by corner), and the Pencil ends back where the last star began."""

import math

from scratch_gym.tasks import Said, Sprite


def _corners(x, y, size):
    out, direction = [], 90
    for _ in range(5):
        x += size * math.sin(math.radians(direction))
        y += size * math.cos(math.radians(direction))
        direction += 144
        out.append((x, y))
    return out


def _visits(run, x, y, size, label, first=10):
    for i, (cx, cy) in enumerate(_corners(x, y, size)):
        run.wait_until(
            Sprite("Pencil").x.approx(cx, 0.5) & Sprite("Pencil").y.approx(cy, 0.5),
            frames=first if i == 0 else 10,
            message=f"{label}: corner {i + 1} ({cx:.0f}, {cy:.0f}) never reached",
        )


def test_small_star(run):
    run.green_flag()
    _visits(run, -200, 120, 60, "the first star (size 60)")


def test_middle_star(run):
    run.green_flag()
    run.frames(12)
    _visits(run, -100, 60, 100, "the second star (size 100)", first=30)


def test_big_star(run):
    run.green_flag()
    run.frames(26)
    _visits(run, 60, 40, 140, "the third star (size 140)", first=30)


def test_ends_where_the_last_star_began(run):
    run.green_flag()
    run.wait_until(
        Said("Pencil").contains("What a starry night!"), frames=90, message="never said the line"
    )
    p = run.sprite("Pencil")
    assert (round(p.x), round(p.y), round(p.direction)) == (60, 40, 90), (
        f"ended at ({p.x:.1f}, {p.y:.1f}) facing {p.direction}"
    )
    assert 1.4 <= run.time <= 1.7, f"the drawing took {run.time:.2f} s, not 3 stars of 0.5 s"
