"""Tests of fix-pet-feeding: hunger and fun change every second and set the Pet's mood costume;
the Food button feeds (hunger down by 3, never below 0, "Yum!", or "I'm full!" when not hungry);
the Toy button plays (fun back to 10, three hops)."""

from scratch_gym.tasks import Said, Sprite, Var


def _feed_at(run, hunger):
    run.green_flag().frames(3)
    run.set_variable("hunger", hunger)
    run.click("Food").frames(3)


def test_needs_change_every_second(run):
    run.green_flag().frames(3)
    run.expect(Var("hunger") == 0, "hunger at the start")
    run.expect(Sprite("Pet").costume == "happy", "the Pet starts happy")
    run.seconds(3.5)
    run.expect(Var("hunger") == 3, "hunger after 3.5 s")
    run.expect(Var("fun") == 7, "fun after 3.5 s")


def test_gets_sad_when_hungry(run):
    run.green_flag().frames(3)
    run.set_variable("hunger", 5)
    run.seconds(1.5)
    run.expect(Var("hunger") == 6, "hunger a second after it was 5")
    run.expect(Var("fun") == 9, "fun after 1.5 s")
    run.expect(Sprite("Pet").costume == "sad", "a Pet with hunger 6 is sad")


def test_feeding_a_hungry_pet(run):
    _feed_at(run, 5)
    run.expect(Var("hunger") == 2, "feeding at hunger 5")
    run.expect(Said("Pet").contains("Yum!"), "the Pet should say Yum!")


def test_hunger_never_below_zero(run):
    _feed_at(run, 2)
    run.expect(Var("hunger") == 0, "feeding at hunger 2")
    run.expect(Said("Pet").contains("Yum!"), "the Pet should say Yum!")


def test_full_pet_does_not_eat(run):
    _feed_at(run, 0)
    run.expect(Var("hunger") == 0, "feeding at hunger 0")
    run.expect(Said("Pet").contains("I'm full!"), "a full Pet says I'm full!")
    run.expect(~Said("Pet").contains("Yum!"), "a full Pet does not eat")


def test_playing_cheers_up(run):
    run.green_flag().frames(3)
    run.set_variable("fun", 2)
    run.click("Toy")
    run.wait_until(Sprite("Pet").y == 0, frames=5, message="the Pet did not hop")
    run.expect(Var("fun") == 10, "fun after playing")
    run.frames(20)
    run.expect(Sprite("Pet").y == -20, "the Pet lands after three hops")
