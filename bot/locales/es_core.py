"""Mensajes del núcleo de la capa de juego (issue 20): un guardado que la base de datos no pudo confirmar."""

MESSAGES: dict[str, str] = {
    "err.commit_unknown": (
        "Mi base de datos dejó de responder mientras se guardaba tu acción, así que aún no sé si se guardó. "
        "Si se guardó, su tablero aparecerá aquí en cuanto vuelva la base de datos; si no, nada cambió y "
        "podrás jugarla de nuevo entonces."
    ),
}
