<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>CatchUp</name>
    <message numerus="yes">
        <source>Library indexed: %Ln paper(s)</source>
        <extracomment>papers taken into the window a step (~10-30 ms at 1M papers)... ...every this many ms while the index takes them in (at once while steps are full)</extracomment>
        <translation>
            <numerusform>Library indexed: %Ln paper</numerusform>
            <numerusform>Library indexed: %Ln papers</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Indexing the library: %Ln paper(s) so far…</source>
        <translation>
            <numerusform>Indexing the library: %Ln paper so far…</numerusform>
            <numerusform>Indexing the library: %Ln papers so far…</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Counted</name>
    <message numerus="yes">
        <source>Merge %Ln paper(s)</source>
        <translation>
            <numerusform>Merge %Ln paper</numerusform>
            <numerusform>Merge %Ln papers</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Moved %Ln paper(s) to the Trash (Edit → Undo puts them back)</source>
        <translation>
            <numerusform>Moved %Ln paper to the Trash (Edit → Undo puts it back)</numerusform>
            <numerusform>Moved %Ln papers to the Trash (Edit → Undo puts them back)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Copied %Ln citation(s)</source>
        <translation>
            <numerusform>Copied %Ln citation</numerusform>
            <numerusform>Copied %Ln citations</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Copied %Ln BibTeX entry(s)</source>
        <translation>
            <numerusform>Copied %Ln BibTeX entry</numerusform>
            <numerusform>Copied %Ln BibTeX entries</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Tag for %Ln paper(s):</source>
        <translation>
            <numerusform>Tag for %Ln paper:</numerusform>
            <numerusform>Tag for %Ln papers:</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln annotation(s) restored</source>
        <translation>
            <numerusform>%Ln annotation restored</numerusform>
            <numerusform>%Ln annotations restored</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Exported %Ln paper(s) to %1</source>
        <translation>
            <numerusform>Exported %Ln paper to %1</numerusform>
            <numerusform>Exported %Ln papers to %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Mark %Ln paper(s) %1</source>
        <translation>
            <numerusform>Mark paper %1</numerusform>
            <numerusform>Mark %Ln papers %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Move %Ln paper(s) to the Trash</source>
        <translation>
            <numerusform>Move %Ln paper to the Trash</numerusform>
            <numerusform>Move %Ln papers to the Trash</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Put back %Ln paper(s) from the Trash</source>
        <translation>
            <numerusform>Put back %Ln paper from the Trash</numerusform>
            <numerusform>Put back %Ln papers from the Trash</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln paper(s) not put back: the Trash was emptied since</source>
        <translation>
            <numerusform>%Ln paper not put back: the Trash was emptied since</numerusform>
            <numerusform>%Ln papers not put back: the Trash was emptied since</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Merged %Ln paper(s) into “%1” (Edit → Undo takes them back)</source>
        <translation>
            <numerusform>Merged %Ln paper into “%1” (Edit → Undo takes it back)</numerusform>
            <numerusform>Merged %Ln papers into “%1” (Edit → Undo takes them back)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 left %Ln change(s) made elsewhere since: %2</source>
        <translation>
            <numerusform>%1 left %Ln change made elsewhere since: %2</numerusform>
            <numerusform>%1 left %Ln changes made elsewhere since: %2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>New library in %1: added the %Ln papers of the bundled sample.</source>
        <translation>
            <numerusform>New library in %1: added the %Ln paper of the bundled sample.</numerusform>
            <numerusform>New library in %1: added the %Ln papers of the bundled sample.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>DuplicatesDialog</name>
    <message numerus="yes">
        <source>Group %1: %Ln paper(s)</source>
        <translation>
            <numerusform>Group %1: %Ln paper</numerusform>
            <numerusform>Group %1: %Ln papers</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Interest</name>
    <message numerus="yes">
        <source>%Ln paper(s)</source>
        <extracomment>the two models kept: the user&apos;s interest (triage, the sort) and More Like This how many of a paper&apos;s strongest features &quot;why&quot; names the triage decisions (default: those kept in the library&apos;s preferences) the worker (made at the first model asked for: not before the first paint) bumped when the catalogue changes: features built before are not kept per model, the labels to train on next (the latest request wins) the list is to be sorted by LIKE&apos;s model once it is learnt (see more_like) per model, every paper it scored, best first (sorted on the worker) what LIKE&apos;s model is like (&quot;“A paper&apos;s title”&quot;, &quot;tag:diffusion&quot;) emptied when Qt deletes this object (its window closed): a model learnt after that is told to nobody</extracomment>
        <translation>
            <numerusform>%Ln paper</numerusform>
            <numerusform>%Ln papers</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message numerus="yes">
        <source>Edits to %Ln paper(s) could not be saved (see the status bar). Retry, or close and lose them?</source>
        <translation>
            <numerusform>Edits to %Ln paper could not be saved (see the status bar). Retry, or close and lose them?</numerusform>
            <numerusform>Edits to %Ln papers could not be saved (see the status bar). Retry, or close and lose them?</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>NoteConflicts</name>
    <message numerus="yes">
        <source>This note was also edited on other computers before they synced: %n other versions, below.</source>
        <translation>
            <numerusform>This note was also edited on another computer before they synced: %n other version, below.</numerusform>
            <numerusform>This note was also edited on other computers before they synced: %n other versions, below.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>NoteLinks</name>
    <message numerus="yes">
        <source>Mentioned in %Ln note(s): %1</source>
        <translation>
            <numerusform>Mentioned in %Ln note: %1</numerusform>
            <numerusform>Mentioned in %Ln notes: %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Sidebar</name>
    <message numerus="yes">
        <source>%Ln paper(s)</source>
        <translation>
            <numerusform>%Ln paper</numerusform>
            <numerusform>%Ln papers</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 of %Ln paper(s)</source>
        <translation>
            <numerusform>%1 of %Ln paper</numerusform>
            <numerusform>%1 of %Ln papers</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 · %Ln selected</source>
        <translation>
            <numerusform>%1 · %Ln selected</numerusform>
            <numerusform>%1 · %Ln selected</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TagManager</name>
    <message numerus="yes">
        <source>Remove “%1” from %Ln paper(s)? (Ctrl+Z undoes.)</source>
        <translation>
            <numerusform>Remove “%1” from %Ln paper? (Ctrl+Z undoes.)</numerusform>
            <numerusform>Remove “%1” from %Ln papers? (Ctrl+Z undoes.)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Transfers</name>
    <message numerus="yes">
        <source>Export the selection (%Ln paper(s))</source>
        <translation>
            <numerusform>Export the selection (%Ln paper)</numerusform>
            <numerusform>Export the selection (%Ln papers)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Export the current view (%Ln paper(s))</source>
        <translation>
            <numerusform>Export the current view (%Ln paper)</numerusform>
            <numerusform>Export the current view (%Ln papers)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Export the whole library (%Ln paper(s))</source>
        <translation>
            <numerusform>Export the whole library (%Ln paper)</numerusform>
            <numerusform>Export the whole library (%Ln papers)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Export %Ln paper(s)</source>
        <translation>
            <numerusform>Export %Ln paper</numerusform>
            <numerusform>Export %Ln papers</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TrashDialog</name>
    <message numerus="yes">
        <source>Forget the %Ln paper(s) in the trash and what you wrote about them? This cannot be undone.</source>
        <translation>
            <numerusform>Forget the %Ln paper in the trash and what you wrote about it? This cannot be undone.</numerusform>
            <numerusform>Forget the %Ln papers in the trash and what you wrote about them? This cannot be undone.</numerusform>
        </translation>
    </message>
</context>
</TS>
