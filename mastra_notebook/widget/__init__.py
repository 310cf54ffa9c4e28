"""The notebook face of a run: StreamView, its wire protocol, transcripts, export, replay, gallery."""
