"""scratch-gym: the real Scratch 3 editor as Gymnasium environments."""

from scratch_gym.envs.registration import ENV_IDS, register_all

__version__ = "0.1.0"
__all__ = ["ENV_IDS", "__version__"]

register_all()
