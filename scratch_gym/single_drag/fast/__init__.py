"""The fast drag path: captured tasks (``snapshot``), pools of them (``pool``), the vectorised
environment on the drag model (``env``) and its calibration against real drags
(``calibration``)."""
