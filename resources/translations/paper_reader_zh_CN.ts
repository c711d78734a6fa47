<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Actions</name>
    <message>
        <source>Other keys</source>
        <extracomment>name -&gt; (English text, what fills its %1…, English tooltip) what else says its texts again in another language (undo, redo, languages)</extracomment>
        <translation>其他按键</translation>
    </message>
    <message>
        <source>Mark Unread</source>
        <translation>标为未读</translation>
    </message>
    <message>
        <source>Mark Reading</source>
        <translation>标为在读</translation>
    </message>
    <message>
        <source>Mark Read</source>
        <translation>标为已读</translation>
    </message>
    <message>
        <source>System Theme</source>
        <translation>跟随系统主题</translation>
    </message>
    <message>
        <source>Light Theme</source>
        <translation>浅色主题</translation>
    </message>
    <message>
        <source>Dark Theme</source>
        <translation>深色主题</translation>
    </message>
    <message>
        <source>&amp;Undo %1</source>
        <translation>撤销(&amp;U) %1</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo %1</source>
        <translation>重做(&amp;R) %1</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <source>Redo</source>
        <translation>重做</translation>
    </message>
    <message>
        <source>&amp;Import…</source>
        <translation>导入(&amp;I)…</translation>
    </message>
    <message>
        <source>Export &amp;Selection…</source>
        <translation>导出所选(&amp;S)…</translation>
    </message>
    <message>
        <source>Export Current &amp;View…</source>
        <translation>导出当前视图(&amp;V)…</translation>
    </message>
    <message>
        <source>Export &amp;Everything…</source>
        <translation>导出全部(&amp;E)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>Add tag</source>
        <translation>添加标签</translation>
    </message>
    <message>
        <source>Add Tag to Selection…</source>
        <translation>为所选论文添加标签…</translation>
    </message>
    <message>
        <source>Edit Tags</source>
        <translation>编辑标签</translation>
    </message>
    <message>
        <source>Edit Note</source>
        <translation>编辑笔记</translation>
    </message>
    <message>
        <source>Open Paper Page</source>
        <translation>打开论文页面</translation>
    </message>
    <message>
        <source>Select two or more papers to merge</source>
        <translation>请选择两篇或更多论文进行合并</translation>
    </message>
    <message>
        <source>Move to &amp;Trash</source>
        <translation>移到回收站(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Merge Selected Papers</source>
        <translation>合并所选论文(&amp;M)</translation>
    </message>
    <message>
        <source>T&amp;rash…</source>
        <translation>回收站(&amp;R)…</translation>
    </message>
    <message>
        <source>Possible &amp;Duplicates…</source>
        <translation>可能的重复项(&amp;D)…</translation>
    </message>
    <message>
        <source>Copy &amp;Citation</source>
        <translation>复制引用(&amp;C)</translation>
    </message>
    <message>
        <source>Copy as &amp;BibTeX</source>
        <translation>复制为 BibTeX(&amp;B)</translation>
    </message>
    <message>
        <source>Next Paper</source>
        <translation>下一篇论文</translation>
    </message>
    <message>
        <source>Previous Paper</source>
        <translation>上一篇论文</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>搜索</translation>
    </message>
    <message>
        <source>Go to List</source>
        <translation>转到列表</translation>
    </message>
    <message>
        <source>&amp;Table View</source>
        <translation>表格视图(&amp;T)</translation>
    </message>
    <message>
        <source>The papers as a table: title, first author, venue, year, status, tags</source>
        <translation>以表格显示论文：标题、第一作者、会议/期刊、年份、阅读状态、标签</translation>
    </message>
    <message>
        <source>T&amp;wo-Line Titles</source>
        <translation>两行标题(&amp;W)</translation>
    </message>
    <message>
        <source>Zoom &amp;In</source>
        <translation>放大(&amp;I)</translation>
    </message>
    <message>
        <source>Zoom &amp;Out</source>
        <translation>缩小(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Actual Size</source>
        <translation>实际大小(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Save Search as Smart List…</source>
        <translation>将搜索保存为智能列表(&amp;S)…</translation>
    </message>
    <message>
        <source>Delete Smart &amp;List…</source>
        <translation>删除智能列表(&amp;L)…</translation>
    </message>
    <message>
        <source>Triage &amp;Keys…</source>
        <translation>分拣按键(&amp;K)…</translation>
    </message>
    <message>
        <source>&amp;Triage Mode</source>
        <translation>分拣模式(&amp;T)</translation>
    </message>
    <message>
        <source>Finding papers like these…</source>
        <translation>正在查找与这些相似的论文…</translation>
    </message>
    <message>
        <source>More &amp;Like This</source>
        <translation>相似论文(&amp;L)</translation>
    </message>
    <message>
        <source>The list sorted by likeness to the paper shown (or the papers selected), learnt on this computer: each paper&apos;s score, and in the pane why</source>
        <translation>按与当前论文（或所选论文）的相似度排序列表，在本机上学习：显示每篇论文的得分，并在阅读窗格中说明原因</translation>
    </message>
    <message>
        <source>Command &amp;Palette…</source>
        <translation>命令面板(&amp;P)…</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <source>&amp;About Paper Reader</source>
        <translation>关于 Paper Reader(&amp;A)</translation>
    </message>
    <message>
        <source>Paper Reader %1</source>
        <translation>Paper Reader %1</translation>
    </message>
    <message>
        <source>Read, triage and annotate research paper lists: your reading status, tags, notes and highlights kept in a library folder of your own.</source>
        <translation>阅读、分拣和批注研究论文列表：你的阅读状态、标签、笔记和高亮都保存在你自己的文库文件夹中。</translation>
    </message>
    <message>
        <source>Library: %1</source>
        <translation>文库：%1</translation>
    </message>
    <message>
        <source>About Paper Reader</source>
        <translation>关于 Paper Reader</translation>
    </message>
    <message>
        <source>in triage mode</source>
        <translation>分拣模式中</translation>
    </message>
    <message>
        <source>in the list</source>
        <translation>在列表中</translation>
    </message>
    <message>
        <source>in the abstract, text chosen</source>
        <translation>在摘要中选中文字时</translation>
    </message>
    <message>
        <source>anywhere</source>
        <translation>任何地方</translation>
    </message>
    <message>
        <source>No paper in %1 to learn from.</source>
        <translation>%1 中没有可供学习的论文。</translation>
    </message>
    <message>
        <source>Finding papers like %1…</source>
        <translation>正在查找与%1相似的论文…</translation>
    </message>
    <message>
        <source>Type a search or choose facets first.</source>
        <translation>请先输入搜索或选择分面。</translation>
    </message>
    <message>
        <source>Save search</source>
        <translation>保存搜索</translation>
    </message>
    <message>
        <source>Name for “%1”:</source>
        <translation>“%1”的名称：</translation>
    </message>
    <message>
        <source>Smart list not saved: %1</source>
        <translation>智能列表未保存：%1</translation>
    </message>
    <message>
        <source>Delete smart list</source>
        <translation>删除智能列表</translation>
    </message>
    <message>
        <source>Smart list:</source>
        <translation>智能列表：</translation>
    </message>
    <message>
        <source>Triage keys</source>
        <translation>分拣按键</translation>
    </message>
    <message>
        <source>One decision a line: KEY tag|status VALUE LABEL
(e.g. “i tag interesting Interesting”)</source>
        <translation>每行一个决定：按键 tag|status 值 名称
（例如“i tag interesting 感兴趣”）</translation>
    </message>
    <message>
        <source>Triage keys not changed: %1</source>
        <translation>分拣按键未更改：%1</translation>
    </message>
    <message>
        <source>Remove Tag</source>
        <translation>移除标签</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;System Language</source>
        <translation>跟随系统语言(&amp;S)</translation>
    </message>
    <message>
        <source>Toggle Coloured Tag %1</source>
        <translation>切换彩色标签 %1</translation>
    </message>
    <message>
        <source>Mana&amp;ge Tags…</source>
        <translation>管理标签(&amp;G)…</translation>
    </message>
</context>
<context>
    <name>App</name>
    <message>
        <source>Backup failed: %1</source>
        <extracomment>how often the window looks for changes another process made to the library a backup of annotations.json at most this often while the window is open predicted interest (triage&apos;s order, the sort, More Like This) the last &quot;could not re-read&quot; told, not told again while it stays the same taking in the papers of an index made anew (None: it took them all at once)</extracomment>
        <translation>备份失败：%1</translation>
    </message>
    <message>
        <source>Could not re-read the library: %1</source>
        <translation>无法重新读取文库：%1</translation>
    </message>
    <message>
        <source>Cannot open the library:
%1</source>
        <translation>无法打开文库：
%1</translation>
    </message>
</context>
<context>
    <name>CatchUp</name>
    <message numerus="yes">
        <source>Library indexed: %Ln paper(s)</source>
        <extracomment>papers taken into the window a step (~10-30 ms at 1M papers)... ...every this many ms while the index takes them in (at once while steps are full)</extracomment>
        <translation>
            <numerusform>文库索引已建成：%Ln 篇论文</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Indexing the library: %Ln paper(s) so far…</source>
        <translation>
            <numerusform>正在为文库建立索引：已有 %Ln 篇论文…</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>CheatSheet</name>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>命令</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>按键</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>作用范围</translation>
    </message>
</context>
<context>
    <name>CommandPalette</name>
    <message>
        <source>Command palette</source>
        <extracomment>the keys of a row&apos;s command (every action of its name), drawn at the right</extracomment>
        <translation>命令面板</translation>
    </message>
    <message>
        <source>Type a command…</source>
        <translation>输入命令…</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>命令</translation>
    </message>
    <message>
        <source>Matching commands</source>
        <translation>匹配的命令</translation>
    </message>
</context>
<context>
    <name>Commands</name>
    <message>
        <source>Redo</source>
        <extracomment>called with (message, kept_in_memory) when an edit could not be written told, as a line for the status bar, what an undo or redo left as others made it</extracomment>
        <translation>重做</translation>
    </message>
    <message>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <source>%1 of “%2”</source>
        <translation>“%2”的%1</translation>
    </message>
    <message>
        <source>%1 and %2 more</source>
        <translation>%1 等，另有 %2 项</translation>
    </message>
    <message>
        <source>Add tag %1</source>
        <translation>添加标签 %1</translation>
    </message>
    <message>
        <source>Remove tag %1</source>
        <translation>移除标签 %1</translation>
    </message>
    <message>
        <source>Edit note</source>
        <translation>编辑笔记</translation>
    </message>
    <message>
        <source>Triage: %1</source>
        <translation>分拣：%1</translation>
    </message>
    <message>
        <source>Merge Papers</source>
        <translation>合并论文</translation>
    </message>
    <message>
        <source>Merge not undone: the Trash was emptied since (what it brought stays)</source>
        <translation>未撤销合并：回收站已被清空（合并带来的内容保留）</translation>
    </message>
    <message>
        <source>Merge undone: “%1” is a paper of its own again</source>
        <translation>已撤销合并：“%1”重新成为一篇独立的论文</translation>
    </message>
    <message>
        <source>Import of %1</source>
        <translation>导入 %1</translation>
    </message>
    <message>
        <source>Rename tag %1 to %2</source>
        <translation>将标签 %1 重命名为 %2</translation>
    </message>
    <message>
        <source>Delete tag %1</source>
        <translation>删除标签 %1</translation>
    </message>
</context>
<context>
    <name>Counted</name>
    <message numerus="yes">
        <source>Merge %Ln paper(s)</source>
        <translation>
            <numerusform>合并 %Ln 篇论文</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Moved %Ln paper(s) to the Trash (Edit → Undo puts them back)</source>
        <translation>
            <numerusform>已将 %Ln 篇论文移到回收站（编辑 → 撤销可放回）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Copied %Ln citation(s)</source>
        <translation>
            <numerusform>已复制 %Ln 条引用</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Copied %Ln BibTeX entry(s)</source>
        <translation>
            <numerusform>已复制 %Ln 条 BibTeX 条目</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Tag for %Ln paper(s):</source>
        <translation>
            <numerusform>为 %Ln 篇论文添加的标签：</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln annotation(s) restored</source>
        <translation>
            <numerusform>恢复了 %Ln 条批注</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Exported %Ln paper(s) to %1</source>
        <translation>
            <numerusform>已将 %Ln 篇论文导出到 %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Mark %Ln paper(s) %1</source>
        <translation>
            <numerusform>将 %Ln 篇论文标为%1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Move %Ln paper(s) to the Trash</source>
        <translation>
            <numerusform>将 %Ln 篇论文移到回收站</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Put back %Ln paper(s) from the Trash</source>
        <translation>
            <numerusform>已从回收站放回 %Ln 篇论文</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln paper(s) not put back: the Trash was emptied since</source>
        <translation>
            <numerusform>%Ln 篇论文未能放回：回收站已被清空</numerusform>
        </translation>
    </message>
    <message>
        <source>Merged “%1” into “%2” (Edit → Undo takes it back)</source>
        <translation>已将“%1”合并到“%2”（编辑 → 撤销可取消合并）</translation>
    </message>
    <message numerus="yes">
        <source>Merged %Ln paper(s) into “%1” (Edit → Undo takes them back)</source>
        <translation>
            <numerusform>已将 %Ln 篇论文合并到“%1”（编辑 → 撤销可取消合并）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 left %Ln change(s) made elsewhere since: %2</source>
        <translation>
            <numerusform>%1保留了此后在别处做的 %Ln 处修改：%2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>New library in %1: added the %Ln papers of the bundled sample.</source>
        <translation>
            <numerusform>新文库位于 %1：已添加内置示例中的 %Ln 篇论文。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>DuplicatesDialog</name>
    <message>
        <source>Possible Duplicates</source>
        <translation>可能的重复项</translation>
    </message>
    <message>
        <source>Possible duplicates</source>
        <translation>可能的重复项</translation>
    </message>
    <message>
        <source>&amp;Merge Group</source>
        <translation>合并该组(&amp;M)</translation>
    </message>
    <message>
        <source>The group&apos;s first paper keeps everything written about the others</source>
        <translation>组内第一篇论文保留为其他论文写下的一切</translation>
    </message>
    <message numerus="yes">
        <source>Group %1: %Ln paper(s)</source>
        <translation>
            <numerusform>第 %1 组：%Ln 篇论文</numerusform>
        </translation>
    </message>
    <message>
        <source>No possible duplicates.</source>
        <translation>没有可能的重复项。</translation>
    </message>
</context>
<context>
    <name>FacetPanel</name>
    <message>
        <source>Smart lists</source>
        <extracomment>the groups&apos; headings (translated when shown, as are the texts below)</extracomment>
        <translation>智能列表</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>阅读状态</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>Venue</source>
        <translation>会议/期刊</translation>
    </message>
    <message>
        <source>Year</source>
        <translation>年份</translation>
    </message>
    <message>
        <source>All papers</source>
        <extracomment>the first line: every paper the search box matches (chosen when no facet is)</extracomment>
        <translation>全部论文</translation>
    </message>
    <message>
        <source>None yet: press t</source>
        <extracomment>under &quot;Tags&quot; when no paper has a tag yet</extracomment>
        <translation>暂无：按 t</translation>
    </message>
    <message>
        <source>None among these</source>
        <extracomment>under &quot;Tags&quot; when the library has tags but none of the papers listed has one</extracomment>
        <translation>这些论文中没有</translation>
    </message>
    <message>
        <source>Counting…</source>
        <extracomment>under each heading until the first count (~1 s after opening 100k papers)</extracomment>
        <translation>正在统计…</translation>
    </message>
    <message>
        <source>Facets</source>
        <extracomment>(group, value) of a tag or smart list whose &quot;Papers Like These&quot; was chosen</extracomment>
        <translation>分面</translation>
    </message>
    <message>
        <source>Papers Like Those Tagged</source>
        <extracomment>groups the user folded away; every other group is shown open set_counts()&apos;s last arguments (shown again in another language)</extracomment>
        <translation>与带此标签的论文相似的论文</translation>
    </message>
    <message>
        <source>Papers Like Those in This Smart List</source>
        <translation>与此智能列表中的论文相似的论文</translation>
    </message>
    <message>
        <source>Every paper the search box matches</source>
        <translation>搜索框匹配的所有论文</translation>
    </message>
    <message>
        <source>The papers are being counted</source>
        <translation>正在统计论文</translation>
    </message>
    <message>
        <source>Other papers have tags: clear the search to see them</source>
        <translation>其他论文有标签：清空搜索即可看到</translation>
    </message>
    <message>
        <source>No paper has a tag yet: press t to tag the paper shown, or type in its Tags box</source>
        <translation>还没有论文带标签：按 t 给当前论文加标签，或在其“标签”框中输入</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
</context>
<context>
    <name>HighlightModel</name>
    <message>
        <source>not found in the current abstract</source>
        <extracomment>how opaque a highlight is drawn over the text (0-255)</extracomment>
        <translation>在当前摘要中找不到</translation>
    </message>
    <message>
        <source>Comment: %1</source>
        <translation>评注：%1</translation>
    </message>
    <message>
        <source>(%1)</source>
        <translation>（%1）</translation>
    </message>
</context>
<context>
    <name>HighlightPalette</name>
    <message>
        <source>claim</source>
        <extracomment>the most of a highlight&apos;s comment its row shows (the whole is kept) colour keys as stored in Highlight.color, with how they are drawn the default names as the window shows them (translated; the library keeps them as above)</extracomment>
        <translation>论点</translation>
    </message>
    <message>
        <source>method</source>
        <translation>方法</translation>
    </message>
    <message>
        <source>result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>question</source>
        <translation>问题</translation>
    </message>
</context>
<context>
    <name>HighlightPanel</name>
    <message>
        <source>Highlights</source>
        <translation>高亮</translation>
    </message>
    <message>
        <source>Delete removes a highlight · Return or double-click comments on it</source>
        <translation>Delete 删除高亮 · 回车或双击可写评注</translation>
    </message>
</context>
<context>
    <name>Highlighter</name>
    <message>
        <source>Highlight as %1</source>
        <translation>高亮为%1</translation>
    </message>
    <message>
        <source>Highlight With…</source>
        <translation>选择高亮颜色…</translation>
    </message>
    <message>
        <source>Comment on Highlight…</source>
        <translation>为高亮写评注…</translation>
    </message>
    <message>
        <source>Rename Highlight Colours…</source>
        <translation>重命名高亮颜色…</translation>
    </message>
    <message>
        <source>&amp;Highlight</source>
        <translation>高亮(&amp;H)</translation>
    </message>
    <message>
        <source>Select text in the abstract first, then press 1–4 to highlight it</source>
        <translation>请先在摘要中选中文字，再按 1–4 高亮</translation>
    </message>
    <message>
        <source>Highlighted as %1 · C adds a comment</source>
        <translation>已高亮为%1 · 按 C 添加评注</translation>
    </message>
    <message>
        <source>Put the cursor in a highlight, or choose one in the list, to comment on it</source>
        <translation>请把光标放在高亮处，或在列表中选择一条高亮，再添加评注</translation>
    </message>
    <message>
        <source>Highlight Comment</source>
        <translation>高亮评注</translation>
    </message>
    <message>
        <source>Comment on “%1”:</source>
        <translation>对“%1”的评注：</translation>
    </message>
    <message>
        <source>Comment on highlight</source>
        <translation>为高亮写评注</translation>
    </message>
    <message>
        <source>Remove highlight</source>
        <translation>移除高亮</translation>
    </message>
    <message>
        <source>Highlight as</source>
        <translation>高亮为</translation>
    </message>
    <message>
        <source>Remove Highlight</source>
        <translation>移除高亮</translation>
    </message>
</context>
<context>
    <name>Interest</name>
    <message numerus="yes">
        <source>%Ln paper(s)</source>
        <extracomment>the two models kept: the user&apos;s interest (triage, the sort) and More Like This how many of a paper&apos;s strongest features &quot;why&quot; names the triage decisions (default: those kept in the library&apos;s preferences) the worker (made at the first model asked for: not before the first paint) bumped when the catalogue changes: features built before are not kept per model, the labels to train on next (the latest request wins) the list is to be sorted by LIKE&apos;s model once it is learnt (see more_like) per model, every paper it scored, best first (sorted on the worker) what LIKE&apos;s model is like (&quot;“A paper&apos;s title”&quot;, &quot;tag:diffusion&quot;) emptied when Qt deletes this object (its window closed): a model learnt after that is told to nobody</extracomment>
        <translation>
            <numerusform>%Ln 篇论文</numerusform>
        </translation>
    </message>
    <message>
        <source>Not scored yet: added after the model learnt</source>
        <translation>尚未评分：在模型学习之后添加</translation>
    </message>
    <message>
        <source>Score %1</source>
        <translation>得分 %1</translation>
    </message>
    <message>
        <source>Score %1 · why: %2</source>
        <translation>得分 %1 · 原因：%2</translation>
    </message>
    <message>
        <source>Predicted interest could not be learnt: %1</source>
        <translation>无法学习预测兴趣：%1</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>&amp;File</source>
        <extracomment>the menu bar, from the first paint (the composition root fills the menus after it); the titles translated when shown, the menus known by these</extracomment>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Paper</source>
        <translation>论文(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Go</source>
        <translation>转到(&amp;G)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>All edits saved.</source>
        <extracomment>the menu bar&apos;s menus by their English titles (MENUS)</extracomment>
        <translation>所有修改均已保存。</translation>
    </message>
    <message>
        <source>Unsaved edits</source>
        <translation>未保存的修改</translation>
    </message>
    <message numerus="yes">
        <source>Edits to %Ln paper(s) could not be saved (see the status bar). Retry, or close and lose them?</source>
        <translation>
            <numerusform>对 %Ln 篇论文的修改无法保存（见状态栏）。要重试，还是关闭并丢弃这些修改？</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Names</name>
    <message>
        <source>Unread</source>
        <translation>未读</translation>
    </message>
    <message>
        <source>Reading</source>
        <translation>在读</translation>
    </message>
    <message>
        <source>Read</source>
        <translation>已读</translation>
    </message>
    <message>
        <source>Mark Unread</source>
        <translation>标为未读</translation>
    </message>
    <message>
        <source>Mark Reading</source>
        <translation>标为在读</translation>
    </message>
    <message>
        <source>Mark Read</source>
        <translation>标为已读</translation>
    </message>
    <message>
        <source>Library order</source>
        <translation>文库顺序</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <source>First author</source>
        <translation>第一作者</translation>
    </message>
    <message>
        <source>Year</source>
        <translation>年份</translation>
    </message>
    <message>
        <source>Venue</source>
        <translation>会议/期刊</translation>
    </message>
    <message>
        <source>Date added</source>
        <translation>添加日期</translation>
    </message>
    <message>
        <source>Date changed</source>
        <translation>修改日期</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>阅读状态</translation>
    </message>
    <message>
        <source>Relevance</source>
        <translation>相关度</translation>
    </message>
    <message>
        <source>Predicted interest</source>
        <translation>预测兴趣</translation>
    </message>
    <message>
        <source>More like this</source>
        <translation>相似论文</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>Added</source>
        <translation>添加日期</translation>
    </message>
    <message>
        <source>Interesting</source>
        <translation>感兴趣</translation>
    </message>
    <message>
        <source>Read later</source>
        <translation>稍后阅读</translation>
    </message>
    <message>
        <source>Skip</source>
        <translation>跳过</translation>
    </message>
</context>
<context>
    <name>NoteConflicts</name>
    <message>
        <source>Conflicting version of the note</source>
        <translation>笔记的冲突版本</translation>
    </message>
    <message>
        <source>Their version of the note</source>
        <translation>对方的笔记版本</translation>
    </message>
    <message>
        <source>Add to my note</source>
        <translation>添加到我的笔记</translation>
    </message>
    <message>
        <source>Use theirs</source>
        <translation>使用对方的</translation>
    </message>
    <message>
        <source>Keep mine</source>
        <translation>保留我的</translation>
    </message>
    <message>
        <source>Put their text under your note; both are kept</source>
        <translation>把对方的文字放在你的笔记下面；两者都保留</translation>
    </message>
    <message>
        <source>Replace your note by their version</source>
        <translation>用对方的版本替换你的笔记</translation>
    </message>
    <message>
        <source>Discard their version</source>
        <translation>丢弃对方的版本</translation>
    </message>
    <message>
        <source>This note was also edited on %1, at an unknown time, before the computers synced. Their version:</source>
        <translation>在两台电脑同步之前，这条笔记也在 %1 上被编辑过（时间未知）。对方的版本：</translation>
    </message>
    <message>
        <source>This note was also edited on %1, %2, before the computers synced. Their version:</source>
        <translation>在两台电脑同步之前，这条笔记也于 %2 在 %1 上被编辑过。对方的版本：</translation>
    </message>
    <message numerus="yes">
        <source>This note was also edited on other computers before they synced: %n other versions, below.</source>
        <translation>
            <numerusform>在同步之前，这条笔记也在其他电脑上被编辑过：另有 %n 个版本，见下方。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>NoteEditor</name>
    <message>
        <source>Your notes in Markdown: **bold**, lists, tables, $math$…</source>
        <extracomment>a note with a longer line is shown read-only (see the module&apos;s docstring): a line of 100,000 characters costs 15-40 ms a key, a million 0.2-0.3 s a longer note is shown read-only too (a million characters of short lines load in ~30 ms; the library holds no longer note, see reader.core.cleaning) a note with a longer run of characters without a space wraps anywhere, not at word boundaries (a 100,000-character line of 500-character words: ~40 ms a key) what a note too long to edit shows of itself keys an open completion popup handles itself (choose, dismiss) the whole note while it is too long to edit (the editor shows its start) the user asked to edit this paper&apos;s long note anyway</extracomment>
        <translation>用 Markdown 写笔记…</translation>
    </message>
    <message>
        <source>Note editor</source>
        <translation>笔记编辑器</translation>
    </message>
    <message>
        <source>Note preview</source>
        <translation>笔记预览</translation>
    </message>
    <message>
        <source>The rendered note appears here.</source>
        <translation>渲染后的笔记显示在这里。</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>笔记</translation>
    </message>
    <message>
        <source>Edit Anyway</source>
        <translation>仍然编辑</translation>
    </message>
    <message>
        <source>Load the whole note to edit (the window may pause)</source>
        <translation>载入整条笔记进行编辑（窗口可能会停顿）</translation>
    </message>
    <message>
        <source>… (note shortened for display: %1 characters in total)</source>
        <translation>…（笔记显示时已截短：共 %1 个字符）</translation>
    </message>
    <message>
        <source>This note has %1 characters: too long to edit here without the window freezing. Its start is shown; all of it is kept.</source>
        <translation>这条笔记有 %1 个字符：太长，在这里编辑会使窗口卡住。这里只显示开头；全文都已保存。</translation>
    </message>
    <message>
        <source>This note has %1 characters on one line: too long to edit here without the window freezing. Its start is shown; all of it is kept.</source>
        <translation>这条笔记的一行有 %1 个字符：太长，在这里编辑会使窗口卡住。这里只显示开头；全文都已保存。</translation>
    </message>
    <message>
        <source>Not pasted: the note would have %1 characters, and a note holds at most %2.</source>
        <translation>未粘贴：笔记将有 %1 个字符，而一条笔记最多 %2 个字符。</translation>
    </message>
</context>
<context>
    <name>NoteLinks</name>
    <message>
        <source>No paper titled “%1” in this library</source>
        <extracomment>the most linking notes named in the &quot;Mentioned in&quot; line an unfinished link just before the cursor</extracomment>
        <translation>文库中没有标题为“%1”的论文</translation>
    </message>
    <message>
        <source>Cleared the search to show the linked paper</source>
        <translation>已清空搜索以显示链接的论文</translation>
    </message>
    <message>
        <source>%1 and %2 more</source>
        <translation>%1 等，另有 %2 项</translation>
    </message>
    <message numerus="yes">
        <source>Mentioned in %Ln note(s): %1</source>
        <translation>
            <numerusform>在 %Ln 条笔记中提到：%1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>PaperController</name>
    <message>
        <source>Not saved yet, kept and retried: %1</source>
        <extracomment>how often edits kept in memory after a failed save are retried while typing a search, the reader pane shows the current paper after this pause what the list&apos;s rows, its counter and the facets show of an annotation</extracomment>
        <translation>尚未保存，已暂存并将重试：%1</translation>
    </message>
    <message>
        <source>Not saved: %1</source>
        <translation>未保存：%1</translation>
    </message>
</context>
<context>
    <name>PaperListView</name>
    <message>
        <source>Papers</source>
        <extracomment>how a view&apos;s type-ahead asks the model (QAbstractItemView.keyboardSearchFlags) the table view&apos;s columns: (heading, the sort key a click on it chooses, or &quot;&quot;) id -&gt; row, built only when needed: a 100k dict costs more than the search the search&apos;s words, marked in the titles the delegate paints tag -&gt; &quot;#rrggbb&quot; for the chips a paper&apos;s score in the order shown, written before its authors (the list sorted by predicted interest or likeness); None: no score shown shown as a table (COLUMNS), else as the list (one column)</extracomment>
        <translation>论文</translation>
    </message>
</context>
<context>
    <name>ReaderPane</name>
    <message>
        <source>
&lt;div align=&quot;center&quot; style=&quot;margin-top: 48px&quot;&gt;
&lt;p style=&quot;font-size: x-large&quot;&gt;Select a paper to read its abstract&lt;/p&gt;
&lt;p&gt;↑/↓ or &lt;b&gt;j&lt;/b&gt;/&lt;b&gt;k&lt;/b&gt; move · &lt;b&gt;1&lt;/b&gt; &lt;b&gt;2&lt;/b&gt; &lt;b&gt;3&lt;/b&gt; mark unread / reading / read&lt;br&gt;
&lt;b&gt;t&lt;/b&gt; add a tag · &lt;b&gt;n&lt;/b&gt; write a note · &lt;b&gt;/&lt;/b&gt; or &lt;b&gt;Ctrl+F&lt;/b&gt; search ·
&lt;b&gt;Ctrl+Z&lt;/b&gt; undo&lt;br&gt;
in the abstract: select text, then &lt;b&gt;1&lt;/b&gt;–&lt;b&gt;4&lt;/b&gt; highlight · &lt;b&gt;h&lt;/b&gt; colours ·
&lt;b&gt;c&lt;/b&gt; comment&lt;/p&gt;
&lt;/div&gt;
</source>
        <extracomment>what the pane shows with no paper selected (translated when shown)</extracomment>
        <translation>
&lt;div align=&quot;center&quot; style=&quot;margin-top: 48px&quot;&gt;
&lt;p style=&quot;font-size: x-large&quot;&gt;选择一篇论文即可阅读其摘要&lt;/p&gt;
&lt;p&gt;↑/↓ 或 &lt;b&gt;j&lt;/b&gt;/&lt;b&gt;k&lt;/b&gt; 移动 · &lt;b&gt;1&lt;/b&gt; &lt;b&gt;2&lt;/b&gt; &lt;b&gt;3&lt;/b&gt; 标为未读 / 在读 / 已读&lt;br&gt;
&lt;b&gt;t&lt;/b&gt; 添加标签 · &lt;b&gt;n&lt;/b&gt; 写笔记 · &lt;b&gt;/&lt;/b&gt; 或 &lt;b&gt;Ctrl+F&lt;/b&gt; 搜索 ·
&lt;b&gt;Ctrl+Z&lt;/b&gt; 撤销&lt;br&gt;
在摘要中：选中文字，再按 &lt;b&gt;1&lt;/b&gt;–&lt;b&gt;4&lt;/b&gt; 高亮 · &lt;b&gt;h&lt;/b&gt; 颜色 ·
&lt;b&gt;c&lt;/b&gt; 评注&lt;/p&gt;
&lt;/div&gt;
</translation>
    </message>
    <message>
        <source>Paper page ↗</source>
        <extracomment>longer abstracts are shown cut (a 10 MB one took 9 s to lay out) the most of the authors&apos; names laid out, and of one name, of the venue, the presentation (imports may bring megabytes in any field) a longer link is not a paper page (and is no link we would follow: see safe_href) the most places a search&apos;s words are marked in the pane (a mark costs ~15 µs to lay out, and a one-letter search in a shown part of 50,000 letters found each one) the search&apos;s words in the abstract: a translucent orange, as browsers find on a page, apart from every highlight colour (the yellow of &quot;claim&quot; above all) rendered papers kept: the neighbours prepared while idle, and j/k back and forth</extracomment>
        <translation>论文页面 ↗</translation>
    </message>
    <message>
        <source>PDF ↗</source>
        <translation>PDF ↗</translation>
    </message>
    <message>
        <source>Unknown authors</source>
        <translation>作者不详</translation>
    </message>
    <message>
        <source>… the abstract goes on for %1 more characters (text shortened for display: %2 characters in total; right-click → Copy Abstract for all of it).</source>
        <translation>…摘要还有 %1 个字符（显示时已截短：共 %2 个字符；右键 → 复制摘要可得全文）。</translation>
    </message>
    <message>
        <source>No abstract.</source>
        <translation>无摘要。</translation>
    </message>
    <message>
        <source>(title derived from abstract)</source>
        <translation>（标题取自摘要）</translation>
    </message>
    <message>
        <source>Keywords: %1</source>
        <translation>关键词：%1</translation>
    </message>
    <message>
        <source>%1 and %2 more</source>
        <translation>%1 等，另有 %2 项</translation>
    </message>
    <message>
        <source>Reader</source>
        <extracomment>the query the empty state says nothing matches (None: none chosen yet) why the paper shown stands where it does in a learnt order (see set_reason)</extracomment>
        <translation>阅读窗格</translation>
    </message>
    <message>
        <source>Abstract</source>
        <translation>摘要</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>Tags:</source>
        <translation>标签：</translation>
    </message>
    <message>
        <source>Notes linking here</source>
        <translation>链接到此处的笔记</translation>
    </message>
    <message>
        <source>Why this paper</source>
        <translation>为何是这篇论文</translation>
    </message>
    <message>
        <source>No paper selected</source>
        <translation>未选择论文</translation>
    </message>
    <message>
        <source>No paper matches “%1”</source>
        <translation>没有论文匹配“%1”</translation>
    </message>
    <message>
        <source>Clear the search box or the chosen facets to see every paper.</source>
        <translation>清空搜索框或所选分面即可看到全部论文。</translation>
    </message>
    <message>
        <source>Copy Abstract as Text</source>
        <translation>复制摘要为文本</translation>
    </message>
    <message>
        <source>Copy Abstract as LaTeX Source</source>
        <translation>复制摘要为 LaTeX 源码</translation>
    </message>
    <message>
        <source>Copy Title as LaTeX Source</source>
        <translation>复制标题为 LaTeX 源码</translation>
    </message>
</context>
<context>
    <name>RenameColoursDialog</name>
    <message>
        <source>yellow</source>
        <extracomment>the colours&apos; names (Highlight.color keys) as the rename dialog says them</extracomment>
        <translation>黄色</translation>
    </message>
    <message>
        <source>blue</source>
        <translation>蓝色</translation>
    </message>
    <message>
        <source>green</source>
        <translation>绿色</translation>
    </message>
    <message>
        <source>pink</source>
        <translation>粉色</translation>
    </message>
    <message>
        <source>Rename Highlight Colours</source>
        <translation>重命名高亮颜色</translation>
    </message>
    <message>
        <source>Name of colour %1</source>
        <translation>颜色 %1 的名称</translation>
    </message>
    <message>
        <source>Colour &amp;%1 (%2):</source>
        <translation>颜色 &amp;%1（%2）：</translation>
    </message>
</context>
<context>
    <name>Sidebar</name>
    <message>
        <source>Like %1</source>
        <extracomment>facet counts are one linear pass over the results: done once typing pauses the search&apos;s preparation done per event-loop turn while a typed query waits for it how often a search waiting for its words (found on a thread of their own) looks the colour of the note under the search box when a query falls back to plain words papers edited while the index is being made (it takes them in once made, in order) True: the facet counts due wait for the index rather than make it (the window sets it until its first paint, whatever the machine&apos;s speed) predicted interest (see use_interest); None: the learnt orders are not offered (papers shown, papers in the library, read among those shown) True while the list is refilled for a keystroke in the search box the next turn: the next step of what the count waits for the words of the query typed, being found off the GUI thread, and what then the sort the user had when a search chose &quot;Relevance&quot; for them (None: the sort shown is the user&apos;s own choice)</extracomment>
        <translation>与%1相似</translation>
    </message>
    <message>
        <source>Sort: %1</source>
        <translation>排序：%1</translation>
    </message>
    <message>
        <source>Searching…</source>
        <translation>正在搜索…</translation>
    </message>
    <message>
        <source>Searching plain words: %1</source>
        <translation>按普通词语搜索：%1</translation>
    </message>
    <message numerus="yes">
        <source>%Ln paper(s)</source>
        <translation>
            <numerusform>%Ln 篇论文</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 of %Ln paper(s)</source>
        <translation>
            <numerusform>%1 / %Ln 篇论文</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 · %2 read</source>
        <translation>%1 · 已读 %2</translation>
    </message>
    <message numerus="yes">
        <source>%1 · %Ln selected</source>
        <translation>
            <numerusform>%1 · 已选 %Ln 篇</numerusform>
        </translation>
    </message>
    <message>
        <source>Search  (tag:x  status:unread  author:…  year:&gt;=2024)</source>
        <translation>搜索（如 tag:x  status:unread）</translation>
    </message>
    <message>
        <source>Search papers</source>
        <translation>搜索论文</translation>
    </message>
    <message>
        <source>Sort by</source>
        <translation>排序方式</translation>
    </message>
    <message>
        <source>Descending order</source>
        <translation>降序</translation>
    </message>
    <message>
        <source>Reverse the order</source>
        <translation>反转顺序</translation>
    </message>
    <message>
        <source>Paper count</source>
        <translation>论文数</translation>
    </message>
</context>
<context>
    <name>TagEditor</name>
    <message>
        <source>Add tag…</source>
        <extracomment>tag -&gt; &quot;#rrggbb&quot;</extracomment>
        <translation>添加标签…</translation>
    </message>
    <message>
        <source>Add tag</source>
        <translation>添加标签</translation>
    </message>
    <message>
        <source>Remove tag “%1”</source>
        <translation>移除标签“%1”</translation>
    </message>
    <message>
        <source>Tag %1, press to remove</source>
        <translation>标签 %1，按下即移除</translation>
    </message>
</context>
<context>
    <name>TagManager</name>
    <message>
        <source>Manage tags</source>
        <translation>管理标签</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>&amp;Rename…</source>
        <translation>重命名(&amp;R)…</translation>
    </message>
    <message>
        <source>&amp;Delete</source>
        <translation>删除(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Colour…</source>
        <translation>颜色(&amp;C)…</translation>
    </message>
    <message>
        <source>&amp;No Colour</source>
        <translation>无颜色(&amp;N)</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Tag</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>Papers</source>
        <translation>论文</translation>
    </message>
    <message>
        <source>Colour</source>
        <translation>颜色</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>快捷键</translation>
    </message>
    <message>
        <source>Rename tag</source>
        <translation>重命名标签</translation>
    </message>
    <message>
        <source>New name for “%1”:</source>
        <translation>“%1”的新名称：</translation>
    </message>
    <message>
        <source>“%1” exists already. Merge “%2” into it?</source>
        <translation>“%1”已存在。要把“%2”合并进去吗？</translation>
    </message>
    <message>
        <source>Merge tags</source>
        <translation>合并标签</translation>
    </message>
    <message numerus="yes">
        <source>Remove “%1” from %Ln paper(s)? (Ctrl+Z undoes.)</source>
        <translation>
            <numerusform>要从 %Ln 篇论文中移除“%1”吗？（Ctrl+Z 可撤销。）</numerusform>
        </translation>
    </message>
    <message>
        <source>Delete tag</source>
        <translation>删除标签</translation>
    </message>
    <message>
        <source>Colour for “%1”</source>
        <translation>“%1”的颜色</translation>
    </message>
    <message>
        <source>Tag colours</source>
        <translation>标签颜色</translation>
    </message>
    <message>
        <source>At most %1 tags have colours.</source>
        <translation>最多只能有 %1 个标签带颜色。</translation>
    </message>
    <message>
        <source>Colour not changed: %1</source>
        <translation>颜色未更改：%1</translation>
    </message>
</context>
<context>
    <name>Transfers</name>
    <message>
        <source>Paper lists (*.json *.bib *.bibtex *.ris *.csv *.tsv *.txt);;JSON (*.json);;BibTeX (*.bib *.bibtex);;RIS (*.ris);;CSV (*.csv *.tsv);;Plain-text abstracts (*.txt);;All files (*)</source>
        <translation>论文列表 (*.json *.bib *.bibtex *.ris *.csv *.tsv *.txt);;JSON (*.json);;BibTeX (*.bib *.bibtex);;RIS (*.ris);;CSV (*.csv *.tsv);;纯文本摘要 (*.txt);;所有文件 (*)</translation>
    </message>
    <message>
        <source>JSON, everything (*.json)</source>
        <extracomment>the export&apos;s file types (translated when shown) and the format each one writes</extracomment>
        <translation>JSON，全部内容 (*.json)</translation>
    </message>
    <message>
        <source>BibTeX (*.bib)</source>
        <translation>BibTeX (*.bib)</translation>
    </message>
    <message>
        <source>CSV spreadsheet (*.csv)</source>
        <translation>CSV 表格 (*.csv)</translation>
    </message>
    <message>
        <source>Markdown, one file per paper (folder)</source>
        <translation>Markdown，每篇论文一个文件（文件夹）</translation>
    </message>
    <message>
        <source>Import cancelled; nothing was changed.</source>
        <translation>导入已取消；没有任何更改。</translation>
    </message>
    <message>
        <source>Import papers</source>
        <extracomment>an import taken in, as one step to undo (an ImportCommand, to push) the largest file an import reads (None: $READER_MAX_IMPORT_SIZE, else 1 GiB) where the file dialogs open: the folder last imported from or exported to</extracomment>
        <translation>导入论文</translation>
    </message>
    <message>
        <source>An import is already running.</source>
        <translation>已有一个导入正在进行。</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>正在读取 %1…</translation>
    </message>
    <message>
        <source>Importing</source>
        <translation>正在导入</translation>
    </message>
    <message>
        <source>Reading %1 (%2 of %3)…</source>
        <translation>正在读取 %1（第 %2 个，共 %3 个）…</translation>
    </message>
    <message>
        <source>Matching against the library…</source>
        <translation>正在与文库比对…</translation>
    </message>
    <message>
        <source>Saving…</source>
        <translation>正在保存…</translation>
    </message>
    <message>
        <source>Import not saved: %1</source>
        <translation>导入未保存：%1</translation>
    </message>
    <message>
        <source>papers</source>
        <translation>论文</translation>
    </message>
    <message>
        <source>Nothing imported: %1</source>
        <translation>未导入任何内容：%1</translation>
    </message>
    <message>
        <source>Nothing to export.</source>
        <translation>没有可导出的内容。</translation>
    </message>
    <message numerus="yes">
        <source>Export the selection (%Ln paper(s))</source>
        <translation>
            <numerusform>导出所选内容（%Ln 篇论文）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Export the current view (%Ln paper(s))</source>
        <translation>
            <numerusform>导出当前视图（%Ln 篇论文）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Export the whole library (%Ln paper(s))</source>
        <translation>
            <numerusform>导出整个文库（%Ln 篇论文）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Export %Ln paper(s)</source>
        <translation>
            <numerusform>导出 %Ln 篇论文</numerusform>
        </translation>
    </message>
    <message>
        <source>Export failed: %1</source>
        <translation>导出失败：%1</translation>
    </message>
    <message>
        <source>skipped %1: %2</source>
        <translation>已跳过 %1：%2</translation>
    </message>
    <message>
        <source>Import finished</source>
        <translation>导入完成</translation>
    </message>
    <message>
        <source>%1: %2 added, %3 updated, %4 unchanged, %5 skipped</source>
        <translation>%1：新增 %2，更新 %3，未变 %4，跳过 %5</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1，%2</translation>
    </message>
</context>
<context>
    <name>TrashDialog</name>
    <message>
        <source>Trash</source>
        <translation>回收站</translation>
    </message>
    <message>
        <source>Deleted papers, with what you wrote about them. Put them back, or empty the trash to forget them for good.</source>
        <translation>已删除的论文，连同你为它们写下的内容。可以放回，或清空回收站将其永久删除。</translation>
    </message>
    <message>
        <source>Put &amp;Back</source>
        <translation>放回(&amp;B)</translation>
    </message>
    <message>
        <source>&amp;Empty Trash…</source>
        <translation>清空回收站(&amp;E)…</translation>
    </message>
    <message>
        <source>The trash is empty.</source>
        <translation>回收站是空的。</translation>
    </message>
    <message>
        <source>Empty Trash</source>
        <translation>清空回收站</translation>
    </message>
    <message numerus="yes">
        <source>Forget the %Ln paper(s) in the trash and what you wrote about them? This cannot be undone.</source>
        <translation>
            <numerusform>要永久删除回收站中的 %Ln 篇论文及你为它们写下的内容吗？此操作无法撤销。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Triage</name>
    <message>
        <source>Leave triage</source>
        <extracomment>the next paper is the likeliest interesting once there is one &quot;interesting&quot; and one other decision (without it: the list&apos;s order) the share of picks made at random among the undecided (so that it does not dwell on the first kind of paper it learnt), drawn from `seed`</extracomment>
        <translation>退出分拣</translation>
    </message>
    <message>
        <source>%1 / %2 triaged</source>
        <translation>已分拣 %1 / %2</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <comment>a count, then a triage decision&apos;s label</comment>
        <translation>%2 %1</translation>
    </message>
    <message>
        <source>%1 decided</source>
        <translation>已决定 %1</translation>
    </message>
    <message>
        <source>%1 interesting</source>
        <translation>感兴趣 %1</translation>
    </message>
    <message>
        <source>about %1 more expected</source>
        <translation>预计还有约 %1 篇</translation>
    </message>
    <message>
        <source>%1 skipped since the last interesting one</source>
        <translation>上次感兴趣后跳过 %1 篇</translation>
    </message>
    <message>
        <source>%1 — all done!</source>
        <translation>%1 — 全部完成！</translation>
    </message>
    <message>
        <source>Papers come in order of predicted interest, learnt from your decisions, tags and ratings on this computer. “About N more expected”: the undecided papers&apos; scores turned into chances by a fit to your decisions so far, added up (rough, and high early on). Many skipped since the last interesting one: probably time to stop.</source>
        <extracomment>how the triage bar&apos;s estimate is made</extracomment>
        <translation>论文按预测兴趣排序，由本机上你的决定、标签和评分学习而来。“预计还有约 N 篇”：把未决定论文的得分按你迄今的决定拟合成概率后求和（粗略估计，开始时偏高）。自上一篇感兴趣的论文以来已跳过很多篇：也许该停下了。</translation>
    </message>
    <message>
        <source>%1: marks the paper %2 (its reading status)</source>
        <translation>%1：将论文标为%2（阅读状态）</translation>
    </message>
    <message>
        <source>%1: tags the paper “%2”</source>
        <translation>%1：给论文加上标签“%2”</translation>
    </message>
</context>
<context>
    <name>TriageBar</name>
    <message>
        <source>Triage</source>
        <translation>分拣</translation>
    </message>
    <message>
        <source>Triage progress</source>
        <translation>分拣进度</translation>
    </message>
    <message>
        <source>Done (Esc)</source>
        <translation>完成 (Esc)</translation>
    </message>
</context>
</TS>
