"""The paper protocol's own parts, frozen: they reproduce the published NL2Scratch scorer
(doheejin/NL2Scratch) item by item, so a change here is a change of the paper's numbers
(``tests/nl2scratch/test_published_agreement.py`` compares all 2,400 items).

* :mod:`~scratch_gym.nl2scratch.paper.parser`: the published line matcher (PS);
* :mod:`~scratch_gym.nl2scratch.paper.program_slots`,
  :mod:`~scratch_gym.nl2scratch.paper.description_slots`: the lexical SAC extractors, with their
  word lists (:mod:`~scratch_gym.nl2scratch.paper.lexicon`) and name and number reading
  (:mod:`~scratch_gym.nl2scratch.paper.text`);
* :mod:`~scratch_gym.nl2scratch.paper.sac_rules`: the rules of the published slot comparison;
* :mod:`~scratch_gym.nl2scratch.paper.metric_text`: the text EM, F1 and PS read.

They implement the interfaces of :mod:`scratch_gym.nl2scratch.interfaces`, beside the robust
protocol's parts; :mod:`scratch_gym.nl2scratch.protocols` assembles both protocols. Imports run one
way: this package imports only ``slots`` and ``sac`` of ``nl2scratch``, and outside it only
``protocols`` imports it.
"""

from scratch_gym.nl2scratch.paper.description_slots import PaperDescriptionSlots
from scratch_gym.nl2scratch.paper.metric_text import metric_text, normalize_text
from scratch_gym.nl2scratch.paper.parser import PaperParser, paper_parse_check
from scratch_gym.nl2scratch.paper.program_slots import PaperProgramSlots
from scratch_gym.nl2scratch.paper.sac_rules import PAPER_RULES, with_loop_slots

__all__ = [
    "PAPER_RULES",
    "PaperDescriptionSlots",
    "PaperParser",
    "PaperProgramSlots",
    "metric_text",
    "normalize_text",
    "paper_parse_check",
    "with_loop_slots",
]
