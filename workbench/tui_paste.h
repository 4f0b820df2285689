/* Text pasted into the workbench: bracketed paste (the terminal marks a
 * paste ESC [200~ ... ESC [201~ once gsw asks it to) read whole from the
 * keys, and the text typed or pasted after `:paste` alone (to a blank
 * line or Ctrl-D); a FEN or a game record sets up that position or game
 * (session_paste.h), while the ':' line takes a paste as its own text.
 * And the terminal's clipboard: OSC 52 for `:fen`. Above tui_input (it
 * hands a paste to the command line), called by the loop (tui.c). */
#ifndef GSW_TUI_PASTE_H
#define GSW_TUI_PASTE_H

#include "workbench/tui_state.h"

/* Ask the terminal to mark pastes (on), or to stop (off: on leaving the
 * screen, by every path out; said once). */
void tui_paste_mode(int on);
/* After an Esc key: 1 if it began a bracketed paste, then read to its end
 * and handled (tui_paste_text); 0 for a plain Esc (what was read after it
 * is given back to the keys). */
int tui_paste_read(tui_t *t);
/* A pasted text: into the ':' line as text (line breaks as spaces) while
 * it is open; else the end of a `:paste`'s text, or a position or game set
 * up in the game on screen (on the picker: the game behind it, else the
 * game highlighted); a text that is none says why in a line and changes
 * nothing. */
void tui_paste_text(tui_t *t, const char *text);
/* A key while `:paste` alone reads its text: 1 if it took it. Starts
 * reading when the session asks (s.paste_wait). */
int tui_paste_key(tui_t *t, int ch);
/* Hand text to the terminal's clipboard (OSC 52): 0 when written (whether
 * the terminal took it, nothing tells). */
int tui_clipboard(const char *text);

#endif
