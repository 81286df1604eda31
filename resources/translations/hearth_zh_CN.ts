<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AssistantMessage</name>
    <message>
        <location filename="../../app/ui/chat/message.py" line="467"/>
        <source>Previous answer</source>
        <translation>上一个回答</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/message.py" line="468"/>
        <source>Show the previous answer to this message</source>
        <translation>显示对这条消息的上一个回答</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/message.py" line="469"/>
        <source>Next answer</source>
        <translation>下一个回答</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/message.py" line="470"/>
        <source>Show the next answer to this message</source>
        <translation>显示对这条消息的下一个回答</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/message.py" line="474"/>
        <source>Answer shown</source>
        <translation>当前显示的回答</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/message.py" line="301"/>
        <source>Answer</source>
        <translation>回答</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/message.py" line="475"/>
        <source>Sources</source>
        <translation>来源</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/message.py" line="464"/>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/message.py" line="464"/>
        <source>Copy the answer</source>
        <translation>复制回答</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/message.py" line="465"/>
        <source>Regenerate</source>
        <translation>重新生成</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/message.py" line="465"/>
        <source>Answer this again</source>
        <translation>重新回答</translation>
    </message>
</context>
<context>
    <name>Banner</name>
    <message>
        <location filename="../../app/ui/chat/parts.py" line="65"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/parts.py" line="68"/>
        <source>Progress</source>
        <translation>进度</translation>
    </message>
</context>
<context>
    <name>BuildRow</name>
    <message>
        <location filename="../../app/ui/models/manager.py" line="77"/>
        <source>Could not reach the download server. Check the internet connection and try again: the download continues where it stopped.</source>
        <translation>无法连接下载服务器。请检查网络连接后重试：下载会从中断处继续。</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/manager.py" line="81"/>
        <source>The disk is full. Free some space and try again: the download continues where it stopped.</source>
        <translation>磁盘已满。请腾出空间后重试：下载会从中断处继续。</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/manager.py" line="84"/>
        <source>The downloaded file was damaged and was not used. Try again.</source>
        <translation>下载的文件已损坏，未被使用。请重试。</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/manager.py" line="86"/>
        <source>The download failed. Try again: it continues where it stopped.</source>
        <translation>下载失败。请重试：会从中断处继续。</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/manager.py" line="131"/>
        <source>Recommended</source>
        <translation>推荐</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/manager.py" line="137"/>
        <source>This computer is not an Apple Silicon Mac: prefer a GGUF build here.</source>
        <translation>这台电脑不是 Apple Silicon Mac：建议在此使用 GGUF 版本。</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/manager.py" line="140"/>
        <source>Checking free memory…</source>
        <translation>正在检查可用内存…</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/manager.py" line="144"/>
        <source>Download progress</source>
        <translation>下载进度</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/manager.py" line="151"/>
        <location filename="../../app/ui/models/manager.py" line="193"/>
        <source>Download</source>
        <translation>下载</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/manager.py" line="152"/>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/manager.py" line="153"/>
        <location filename="../../app/ui/models/manager.py" line="198"/>
        <source>Use this model</source>
        <translation>使用此模型</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/manager.py" line="175"/>
        <location filename="../../app/ui/models/manager.py" line="296"/>
        <source>Paused at %1 — resume to continue</source>
        <translation>已暂停于 %1 — 点击继续</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/manager.py" line="192"/>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/manager.py" line="192"/>
        <source>Retry</source>
        <translation>重试</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/manager.py" line="197"/>
        <source>In use</source>
        <translation>使用中</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/manager.py" line="197"/>
        <source>Loading…</source>
        <translation>正在加载…</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/manager.py" line="200"/>
        <source>Downloaded and verified.</source>
        <translation>已下载并校验。</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/manager.py" line="206"/>
        <source>Needs an Apple Silicon Mac.</source>
        <translation>需要 Apple Silicon Mac。</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/manager.py" line="209"/>
        <source>Fits</source>
        <translation>可运行</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/manager.py" line="209"/>
        <source>Tight</source>
        <translation>勉强</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/manager.py" line="210"/>
        <source>Won&apos;t fit</source>
        <translation>内存不足</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/manager.py" line="210"/>
        <source>Not for this computer</source>
        <translation>不适用于这台电脑</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/manager.py" line="217"/>
        <source>%1 of weights + %2 of KV cache for %3 tokens</source>
        <translation>权重 %1 + KV 缓存 %2（%3 个 token）</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/manager.py" line="221"/>
        <source>Free memory is unknown here; using a %1-token context.</source>
        <translation>无法得知可用内存；使用 %1 个 token 的上下文。</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/manager.py" line="224"/>
        <source>; %1 free.</source>
        <translation>；可用 %1。</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/manager.py" line="226"/>
        <source> leaves little of the %1 free; other apps may slow down.</source>
        <translation>，可用的 %1 所剩无几；其他应用可能变慢。</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/manager.py" line="229"/>
        <source>: only %1 is free. Close other apps, pick a smaller build, or use q8_0 KV.</source>
        <translation>：可用内存只有 %1。请关闭其他应用、选择更小的版本，或使用 q8_0 KV。</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/manager.py" line="238"/>
        <source>Contacting the server…</source>
        <translation>正在连接服务器…</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/manager.py" line="282"/>
        <source>Downloading %1: %2%</source>
        <translation>正在下载 %1：%2%</translation>
    </message>
</context>
<context>
    <name>CalendarView</name>
    <message>
        <location filename="../../app/ui/pages/calendar/view.py" line="610"/>
        <source>, %1 unchanged</source>
        <translation>，未变 %1</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/view.py" line="614"/>
        <source>; 1 event you changed in Hearth: see details</source>
        <translation>；1 个日程你在 Hearth 中改过：见详情</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/view.py" line="616"/>
        <source>; %1 events you changed in Hearth: see details</source>
        <translation>；%1 个日程你在 Hearth 中改过：见详情</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/view.py" line="192"/>
        <location filename="../../app/ui/pages/calendar/view.py" line="247"/>
        <source>Agenda</source>
        <translation>日程</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/view.py" line="247"/>
        <source>Day</source>
        <translation>日</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/view.py" line="246"/>
        <source>Week</source>
        <translation>周</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/view.py" line="193"/>
        <location filename="../../app/ui/pages/calendar/view.py" line="246"/>
        <source>Month</source>
        <translation>月</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/view.py" line="194"/>
        <source>Days by the hour</source>
        <translation>按小时显示的日程</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/view.py" line="219"/>
        <source>+%1 more</source>
        <translation>另有 %1 项</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/view.py" line="223"/>
        <source>Edit…</source>
        <translation>编辑…</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/view.py" line="223"/>
        <source>Delete…</source>
        <translation>删除…</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/view.py" line="230"/>
        <source>New event</source>
        <translation>新建日程</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/view.py" line="259"/>
        <source>Today</source>
        <translation>今天</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/view.py" line="259"/>
        <source>Previous</source>
        <translation>上一页</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/view.py" line="260"/>
        <source>Next</source>
        <translation>下一页</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/view.py" line="281"/>
        <source>Import .ics…</source>
        <translation>导入 .ics…</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/view.py" line="280"/>
        <source>Import / Export</source>
        <translation>导入 / 导出</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/view.py" line="282"/>
        <source>Export .ics…</source>
        <translation>导出 .ics…</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/view.py" line="377"/>
        <source>Week of %1</source>
        <translation>%1 这一周</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/view.py" line="378"/>
        <source>From %1</source>
        <translation>自 %1 起</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/view.py" line="391"/>
        <source>1 event</source>
        <translation>1 个日程</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/view.py" line="392"/>
        <source>%1 events</source>
        <translation>%1 个日程</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/view.py" line="403"/>
        <source>All day</source>
        <translation>全天</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/view.py" line="403"/>
        <source>Nothing planned</source>
        <translation>没有安排</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/view.py" line="452"/>
        <source>Added “%1”</source>
        <translation>已添加“%1”</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/view.py" line="472"/>
        <source>Move event</source>
        <translation>移动日程</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/view.py" line="473"/>
        <source>Move “%1” to %2?</source>
        <translation>要把“%1”移到 %2 吗？</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/view.py" line="475"/>
        <source>Move</source>
        <translation>移动</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/view.py" line="485"/>
        <source>Delete event</source>
        <translation>删除日程</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/view.py" line="486"/>
        <source>Delete “%1”?</source>
        <translation>要删除“%1”吗？</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/view.py" line="486"/>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/view.py" line="509"/>
        <source>Changed “%1”</source>
        <translation>已更改“%1”</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/view.py" line="516"/>
        <source>Deleted “%1”</source>
        <translation>已删除“%1”</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/view.py" line="527"/>
        <source>The calendar could not be read: %1</source>
        <translation>无法读取日历：%1</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/view.py" line="531"/>
        <source>Import a calendar</source>
        <translation>导入日历</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/view.py" line="532"/>
        <location filename="../../app/ui/pages/calendar/view.py" line="635"/>
        <source>Calendars (*.ics)</source>
        <translation>日历文件 (*.ics)</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/view.py" line="607"/>
        <source>Imported: %1 new, %2 updated</source>
        <translation>已导入：新增 %1，更新 %2</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/view.py" line="618"/>
        <source>; %1 repaired, %2 skipped</source>
        <translation>；修复 %1，跳过 %2</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/view.py" line="633"/>
        <source>Export the calendar</source>
        <translation>导出日历</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/view.py" line="649"/>
        <source>Exported to %1</source>
        <translation>已导出到 %1</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/view.py" line="283"/>
        <source>Remove events the file dropped</source>
        <translation>删除文件中已不存在的日程</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/view.py" line="285"/>
        <source>When you import a calendar again, remove the events an earlier import of it brought in that the file no longer has. You see how many before anything changes.</source>
        <translation>再次导入同一日历时，删除之前导入的、但文件中已不存在的日程。在任何更改之前，您会先看到将删除多少个。</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/view.py" line="580"/>
        <source>1 event from an earlier import of this calendar is not in %2 and will be removed:</source>
        <translation>之前导入的此日历中有 1 个日程不在 %2 中，将被删除：</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/view.py" line="582"/>
        <source>%1 events from an earlier import of this calendar are not in %2 and will be removed:</source>
        <translation>之前导入的此日历中有 %1 个日程不在 %2 中，将被删除：</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/view.py" line="586"/>
        <source>…and %1 more</source>
        <translation>……还有 %1 个</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/view.py" line="587"/>
        <source>Remove events?</source>
        <translation>删除日程？</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/view.py" line="589"/>
        <source>Remove 1 and import</source>
        <translation>删除 1 个并导入</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/view.py" line="590"/>
        <source>Remove %1 and import</source>
        <translation>删除 %1 个并导入</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/view.py" line="569"/>
        <location filename="../../app/ui/pages/calendar/view.py" line="592"/>
        <source>Import cancelled: nothing changed.</source>
        <translation>已取消导入：没有任何更改。</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/view.py" line="612"/>
        <source>, %1 removed</source>
        <translation>，删除 %1 个</translation>
    </message>
</context>
<context>
    <name>ChatView</name>
    <message>
        <location filename="../../app/ui/chat/chat_view.py" line="313"/>
        <source>Could not remember what this card shows</source>
        <translation>无法保存此卡片的状态</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/chat_view.py" line="366"/>
        <source>Your message was not sent: it is too long for the model and could not be kept as a document (%1).</source>
        <translation>消息未发送：它太长，模型读不完，也无法保存为文档（%1）。</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/chat_view.py" line="414"/>
        <source>Could not show that answer</source>
        <translation>无法显示该回答</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/chat_view.py" line="247"/>
        <source>Could not open this conversation</source>
        <translation>无法打开此对话</translation>
    </message>
</context>
<context>
    <name>Composer</name>
    <message>
        <location filename="../../app/ui/chat/composer.py" line="71"/>
        <source>Ask anything, or drop files here…</source>
        <translation>随便问，或把文件拖到这里…</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/composer.py" line="73"/>
        <source>Message</source>
        <translation>消息</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/composer.py" line="90"/>
        <source>Files</source>
        <translation>文件</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/composer.py" line="91"/>
        <location filename="../../app/ui/chat/composer.py" line="195"/>
        <source>Add files</source>
        <translation>添加文件</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/composer.py" line="92"/>
        <source>Add files to this chat so you can ask about them</source>
        <translation>把文件添加到此对话，以便询问其内容</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/composer.py" line="154"/>
        <source>Chats about spreadsheets always think: the model works through the figures step by step.</source>
        <translation>关于电子表格的对话总会思考：模型会一步步核算数字。</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/composer.py" line="163"/>
        <source>Think</source>
        <translation>思考</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/composer.py" line="97"/>
        <source>Think before answering</source>
        <translation>回答前先思考</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/composer.py" line="142"/>
        <source>Think step by step before answering (slower, better for hard questions)  Ctrl+T</source>
        <translation>回答前逐步思考（较慢，适合难题）  Ctrl+T</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/composer.py" line="114"/>
        <source>Send</source>
        <translation>发送</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/composer.py" line="104"/>
        <source>Enter to send · Shift+Enter for a new line</source>
        <translation>Enter 发送 · Shift+Enter 换行</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/composer.py" line="114"/>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/composer.py" line="85"/>
        <source>Editing your message — Enter resends, Esc cancels</source>
        <translation>正在编辑消息 — Enter 重新发送，Esc 取消</translation>
    </message>
</context>
<context>
    <name>ConflictDialog</name>
    <message>
        <location filename="../../app/ui/pages/calendar/conflicts.py" line="29"/>
        <source>Changed in both places</source>
        <translation>两边都有更改</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/conflicts.py" line="33"/>
        <source>1 event was changed in Hearth and also in %2 since you imported it. Which version should the calendar keep?</source>
        <translation>自上次导入以来，有 1 个日程在 Hearth 和 %2 中都被更改了。日历要保留哪个版本？</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/conflicts.py" line="35"/>
        <source>%1 events were changed in Hearth and also in %2 since you imported them. Which version should the calendar keep?</source>
        <translation>自上次导入以来，有 %1 个日程在 Hearth 和 %2 中都被更改了。日历要保留哪个版本？</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/conflicts.py" line="42"/>
        <source>Keep it deleted</source>
        <translation>保持删除</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/conflicts.py" line="42"/>
        <source>Keep mine</source>
        <translation>保留我的</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/conflicts.py" line="44"/>
        <source>Take the file&apos;s</source>
        <translation>采用文件中的</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/conflicts.py" line="43"/>
        <source>Keep both</source>
        <translation>两个都保留</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/conflicts.py" line="52"/>
        <source>Import</source>
        <translation>导入</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/conflicts.py" line="60"/>
        <source>“%1”: deleted in Hearth, changed in the file</source>
        <translation>“%1”：已在 Hearth 中删除，文件中有更改</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/conflicts.py" line="63"/>
        <source>“%1”: changed in Hearth and in the file</source>
        <translation>“%1”：在 Hearth 和文件中都有更改</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/conflicts.py" line="65"/>
        <source>“%1” in Hearth, “%2” in the file</source>
        <translation>Hearth 中为“%1”，文件中为“%2”</translation>
    </message>
</context>
<context>
    <name>ConnectPage</name>
    <message>
        <location filename="../../app/ui/settings/connect.py" line="107"/>
        <location filename="../../app/ui/settings/connect.py" line="232"/>
        <source>Clear log</source>
        <translation>清除日志</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/connect.py" line="108"/>
        <source>Clear the request log</source>
        <translation>清除请求日志</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/connect.py" line="230"/>
        <source>Clear the request log?</source>
        <translation>清除请求日志？</translation>
    </message>
    <message numerus="yes">
        <location filename="../../app/ui/settings/connect.py" line="231"/>
        <source>%n logged request(s) will be forgotten, here and on disk.</source>
        <translation>
            <numerusform>将忘记 %n 条已记录的请求，这里和磁盘上都不再保留。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/connect.py" line="70"/>
        <source>Let other apps use Hearth&apos;s model (local server)</source>
        <translation>允许其他应用使用 Hearth 的模型（本地服务器）</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/connect.py" line="79"/>
        <source>Programs on this computer (OpenClaw, editors, scripts) can then use the model Hearth has loaded, with the key below. Your own chats always go first.</source>
        <translation>这台电脑上的程序（OpenClaw、编辑器、脚本）就可以凭下面的密钥使用 Hearth 已加载的模型。你自己的对话始终优先。</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/connect.py" line="82"/>
        <source>Port</source>
        <translation>端口</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/connect.py" line="75"/>
        <source>Server port</source>
        <translation>服务器端口</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/connect.py" line="83"/>
        <source>Base URL</source>
        <translation>基础 URL</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/connect.py" line="84"/>
        <source>API key</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/connect.py" line="85"/>
        <source>New key</source>
        <translation>新密钥</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/connect.py" line="86"/>
        <source>Replace the API key with a new one</source>
        <translation>用新的 API 密钥替换当前密钥</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/connect.py" line="87"/>
        <source>Web pages allowed to call the server (CORS)</source>
        <translation>允许调用服务器的网页（CORS）</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/connect.py" line="89"/>
        <source>None (recommended), or e.g. http://localhost:5173</source>
        <translation>无（推荐），或例如 http://localhost:5173</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/connect.py" line="90"/>
        <source>Allowed web origins</source>
        <translation>允许的网页来源</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/connect.py" line="92"/>
        <source>Ready-to-paste configuration</source>
        <translation>可直接粘贴的配置</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/connect.py" line="94"/>
        <source>OpenClaw</source>
        <translation>OpenClaw</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/connect.py" line="95"/>
        <source>Editor (Continue)</source>
        <translation>编辑器（Continue）</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/connect.py" line="96"/>
        <source>MCP clients</source>
        <translation>MCP 客户端</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/connect.py" line="104"/>
        <source>Test connection</source>
        <translation>测试连接</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/connect.py" line="110"/>
        <source>Recent requests (no message text is kept)</source>
        <translation>最近的请求（不保存消息内容）</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/connect.py" line="113"/>
        <source>Request log</source>
        <translation>请求日志</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/connect.py" line="133"/>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/connect.py" line="134"/>
        <source>Copy %1</source>
        <translation>复制%1</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/connect.py" line="209"/>
        <source>A new key takes effect when you save; programs using the old one must be given the new one.</source>
        <translation>新密钥在保存后生效；使用旧密钥的程序需要换成新密钥。</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/connect.py" line="247"/>
        <source>The server is off: turn it on and save first.</source>
        <translation>服务器未开启：请先开启并保存。</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/connect.py" line="265"/>
        <source>Testing…</source>
        <translation>正在测试…</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/connect.py" line="269"/>
        <source>Connected: the server answers with %1.</source>
        <translation>已连接：服务器以 %1 应答。</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/connect.py" line="274"/>
        <source>No answer: %1</source>
        <translation>没有应答：%1</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/connect.py" line="289"/>
        <source>batched with %1</source>
        <translation>与 %1 个请求合批</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/connect.py" line="291"/>
        <source>%1 cached</source>
        <translation>%1 个已缓存</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/connect.py" line="171"/>
        <source>OpenClaw sends requests of 11,000 to 14,000 tokens, so it needs a context of about %1 tokens.</source>
        <translation>OpenClaw 的请求有 11,000 到 14,000 个 token，因此需要约 %1 个 token 的上下文。</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/connect.py" line="179"/>
        <source>The model is loaded with %1: too short for it.</source>
        <translation>当前模型加载的上下文为 %1：对它来说太短。</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/connect.py" line="180"/>
        <source>Use %1 tokens</source>
        <translation>使用 %1 个 token</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/connect.py" line="190"/>
        <source>Its cache takes about %1 of memory (%2 now).</source>
        <translation>其缓存约占用 %1 内存（当前为 %2）。</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/connect.py" line="203"/>
        <source>The context length is set to %1 tokens: it applies when you save, and the model reloads.</source>
        <translation>上下文长度已设为 %1 个 token：保存后生效，模型会重新加载。</translation>
    </message>
</context>
<context>
    <name>Desktop</name>
    <message>
        <location filename="../../app/ui/shell/desktop.py" line="203"/>
        <source>Hearth is still running</source>
        <translation>Hearth 仍在运行</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/desktop.py" line="204"/>
        <source>Hearth keeps running in the tray so reminders and quick ask work. Quit it from the tray menu.</source>
        <translation>Hearth 会继续在托盘中运行，以便提醒和快速提问可用。可从托盘菜单退出。</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/desktop.py" line="207"/>
        <source>Could not save settings</source>
        <translation>无法保存设置</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/desktop.py" line="211"/>
        <source>Hearth test reminder</source>
        <translation>Hearth 测试提醒</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/desktop.py" line="212"/>
        <source>Reminders appear like this, with Snooze and Open.</source>
        <translation>提醒会像这样显示，并带有“稍后提醒”和“打开”。</translation>
    </message>
</context>
<context>
    <name>DropIndexer</name>
    <message>
        <location filename="../../app/ui/indexing.py" line="43"/>
        <source>Could not start a chat for these files</source>
        <translation>无法为这些文件新建对话</translation>
    </message>
    <message>
        <location filename="../../app/ui/indexing.py" line="53"/>
        <source>Adding %1…</source>
        <translation>正在添加 %1…</translation>
    </message>
    <message>
        <location filename="../../app/ui/indexing.py" line="86"/>
        <source>Reading %1 (%2 of %3)…</source>
        <translation>正在读取 %1（第 %2 个，共 %3 个）…</translation>
    </message>
    <message>
        <location filename="../../app/ui/indexing.py" line="95"/>
        <source>1 file ready: ask about it in this chat.</source>
        <translation>1 个文件已就绪：可以在此对话中询问。</translation>
    </message>
    <message>
        <location filename="../../app/ui/indexing.py" line="96"/>
        <source>%1 files ready: ask about them in this chat.</source>
        <translation>%1 个文件已就绪：可以在此对话中询问。</translation>
    </message>
    <message>
        <location filename="../../app/ui/indexing.py" line="98"/>
        <source>1 could not be read</source>
        <translation>1 个无法读取</translation>
    </message>
    <message>
        <location filename="../../app/ui/indexing.py" line="99"/>
        <source>%1 could not be read</source>
        <translation>%1 个无法读取</translation>
    </message>
    <message>
        <location filename="../../app/ui/indexing.py" line="100"/>
        <source>Nothing could be read</source>
        <translation>没有可读取的内容</translation>
    </message>
    <message>
        <location filename="../../app/ui/indexing.py" line="105"/>
        <source>No readable documents in what you dropped.</source>
        <translation>拖入的内容中没有可读取的文档。</translation>
    </message>
    <message>
        <location filename="../../app/ui/indexing.py" line="113"/>
        <source>Could not add these files: %1</source>
        <translation>无法添加这些文件：%1</translation>
    </message>
</context>
<context>
    <name>EmptyState</name>
    <message>
        <location filename="../../app/ui/chat/parts.py" line="26"/>
        <source>What can I help with?</source>
        <translation>有什么可以帮你？</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/parts.py" line="32"/>
        <source>Ask a question, drop a PDF or a folder here to ask about it, or ask about your files and calendar. Everything stays on this computer.</source>
        <translation>提个问题，把 PDF 或文件夹拖到这里来询问其内容，或者问问你的文件和日历。所有内容都只留在这台电脑上。</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/parts.py" line="46"/>
        <source>What&apos;s on my calendar this week?</source>
        <translation>我这周有什么安排？</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/parts.py" line="47"/>
        <source>Find my most recent invoice</source>
        <translation>找到我最近的发票</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/parts.py" line="48"/>
        <source>Summarise the PDF I dropped</source>
        <translation>总结我拖进来的 PDF</translation>
    </message>
</context>
<context>
    <name>EngineReason</name>
    <message>
        <location filename="../../app/ui/engine_reason.py" line="18"/>
        <source>You chose llama.cpp in settings.</source>
        <translation>你在设置中选择了 llama.cpp。</translation>
    </message>
    <message>
        <location filename="../../app/ui/engine_reason.py" line="19"/>
        <source>You chose MLX in settings.</source>
        <translation>你在设置中选择了 MLX。</translation>
    </message>
    <message>
        <location filename="../../app/ui/engine_reason.py" line="20"/>
        <source>The model is a GGUF file, so Hearth runs it with llama.cpp on this machine.</source>
        <translation>模型是 GGUF 文件，因此 Hearth 在这台电脑上用 llama.cpp 运行它。</translation>
    </message>
    <message>
        <location filename="../../app/ui/engine_reason.py" line="23"/>
        <source>The model is a GGUF file, so Hearth runs it with llama.cpp with Metal on this Mac.</source>
        <translation>模型是 GGUF 文件，因此 Hearth 在这台 Mac 上用 llama.cpp（Metal）运行它。</translation>
    </message>
    <message>
        <location filename="../../app/ui/engine_reason.py" line="26"/>
        <source>Apple Silicon with MLX installed and an MLX model folder: MLX is the fastest engine here.</source>
        <translation>Apple Silicon、已安装 MLX，且模型是 MLX 文件夹：MLX 是这里最快的引擎。</translation>
    </message>
    <message>
        <location filename="../../app/ui/engine_reason.py" line="29"/>
        <source>The model is an MLX folder and MLX&apos;s CPU build is installed, so Hearth runs it with MLX; a GGUF build with llama.cpp would be faster on this machine.</source>
        <translation>模型是 MLX 文件夹且已安装 MLX 的 CPU 版本，因此 Hearth 用 MLX 运行它；在这台电脑上，GGUF 版本配合 llama.cpp 会更快。</translation>
    </message>
    <message>
        <location filename="../../app/ui/engine_reason.py" line="13"/>
        <source>You chose the remote engine: Hearth talks to %1.</source>
        <translation>你选择了远程引擎：Hearth 连接到 %1。</translation>
    </message>
    <message>
        <location filename="../../app/ui/engine_reason.py" line="15"/>
        <source>No local model is chosen and a server URL is set, so Hearth talks to %1.</source>
        <translation>未选择本地模型且设置了服务器地址，因此 Hearth 连接到 %1。</translation>
    </message>
</context>
<context>
    <name>EventDialog</name>
    <message>
        <location filename="../../app/ui/pages/calendar/editor.py" line="81"/>
        <source>Edit event</source>
        <translation>编辑日程</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/editor.py" line="81"/>
        <source>New event</source>
        <translation>新建日程</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/editor.py" line="85"/>
        <source>What is it?</source>
        <translation>是什么事？</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/editor.py" line="86"/>
        <location filename="../../app/ui/pages/calendar/editor.py" line="87"/>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/editor.py" line="88"/>
        <source>All day</source>
        <translation>全天</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/editor.py" line="92"/>
        <source>Starts</source>
        <translation>开始</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/editor.py" line="92"/>
        <source>Ends</source>
        <translation>结束</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/editor.py" line="109"/>
        <location filename="../../app/ui/pages/calendar/editor.py" line="110"/>
        <source>Place</source>
        <translation>地点</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/editor.py" line="112"/>
        <location filename="../../app/ui/pages/calendar/editor.py" line="114"/>
        <source>Notes</source>
        <translation>备注</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/editor.py" line="115"/>
        <source>Does not repeat</source>
        <translation>不重复</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/editor.py" line="115"/>
        <source>Every day</source>
        <translation>每天</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/editor.py" line="115"/>
        <source>Every week</source>
        <translation>每周</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/editor.py" line="116"/>
        <source>Every month</source>
        <translation>每月</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/editor.py" line="116"/>
        <source>Every year</source>
        <translation>每年</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/editor.py" line="121"/>
        <source>Custom (%1)</source>
        <translation>自定义（%1）</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/editor.py" line="123"/>
        <location filename="../../app/ui/pages/calendar/editor.py" line="124"/>
        <source>Repeat</source>
        <translation>重复</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/editor.py" line="125"/>
        <source>No reminder</source>
        <translation>不提醒</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/editor.py" line="125"/>
        <source>At the start</source>
        <translation>开始时</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/editor.py" line="125"/>
        <source>5 minutes before</source>
        <translation>提前 5 分钟</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/editor.py" line="126"/>
        <source>10 minutes before</source>
        <translation>提前 10 分钟</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/editor.py" line="126"/>
        <source>15 minutes before</source>
        <translation>提前 15 分钟</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/editor.py" line="127"/>
        <source>30 minutes before</source>
        <translation>提前 30 分钟</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/editor.py" line="127"/>
        <source>1 hour before</source>
        <translation>提前 1 小时</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/editor.py" line="128"/>
        <source>1 day before</source>
        <translation>提前 1 天</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/editor.py" line="132"/>
        <source>%1 minutes before</source>
        <translation>提前 %1 分钟</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/editor.py" line="133"/>
        <location filename="../../app/ui/pages/calendar/editor.py" line="134"/>
        <source>Reminder</source>
        <translation>提醒</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/editor.py" line="142"/>
        <source>Delete…</source>
        <translation>删除…</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/editor.py" line="171"/>
        <source>Give the event a title.</source>
        <translation>请为日程填写标题。</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/editor.py" line="176"/>
        <source>The end must be on or after the start.</source>
        <translation>结束日期不能早于开始日期。</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/editor.py" line="182"/>
        <source>The end must be after the start.</source>
        <translation>结束时间必须晚于开始时间。</translation>
    </message>
</context>
<context>
    <name>Failures</name>
    <message>
        <location filename="../../app/ui/failures.py" line="27"/>
        <source>No model is loaded yet.</source>
        <translation>尚未加载模型。</translation>
    </message>
    <message>
        <location filename="../../app/ui/failures.py" line="28"/>
        <source>The model file cannot be used (missing, damaged or not supported).</source>
        <translation>无法使用该模型文件（文件缺失、损坏或不受支持）。</translation>
    </message>
    <message>
        <location filename="../../app/ui/failures.py" line="30"/>
        <source>This conversation no longer fits in the model&apos;s memory.</source>
        <translation>此对话已超出模型的上下文容量。</translation>
    </message>
    <message>
        <location filename="../../app/ui/failures.py" line="32"/>
        <source>The model engine failed.</source>
        <translation>模型引擎出错。</translation>
    </message>
    <message>
        <location filename="../../app/ui/failures.py" line="33"/>
        <source>The model server cannot be reached.</source>
        <translation>无法连接到模型服务器。</translation>
    </message>
    <message>
        <location filename="../../app/ui/failures.py" line="35"/>
        <source>The model server refused the request.</source>
        <translation>模型服务器拒绝了请求。</translation>
    </message>
    <message>
        <location filename="../../app/ui/failures.py" line="36"/>
        <source>An answer in this conversation is still being written.</source>
        <translation>此对话中仍有回答正在生成。</translation>
    </message>
    <message>
        <location filename="../../app/ui/failures.py" line="38"/>
        <source>Stopped.</source>
        <translation>已停止。</translation>
    </message>
    <message>
        <location filename="../../app/ui/failures.py" line="39"/>
        <source>The disk is full: Hearth could not save.</source>
        <translation>磁盘已满：Hearth 无法保存。</translation>
    </message>
    <message>
        <location filename="../../app/ui/failures.py" line="41"/>
        <source>Hearth could not read or write its data.</source>
        <translation>Hearth 无法读取或写入其数据。</translation>
    </message>
    <message>
        <location filename="../../app/ui/failures.py" line="42"/>
        <source>That request cannot be done.</source>
        <translation>无法完成该请求。</translation>
    </message>
    <message>
        <location filename="../../app/ui/failures.py" line="43"/>
        <source>Something went wrong inside Hearth.</source>
        <translation>Hearth 内部出错。</translation>
    </message>
    <message>
        <location filename="../../app/ui/failures.py" line="54"/>
        <source>Choose a model…</source>
        <translation>选择模型…</translation>
    </message>
    <message>
        <location filename="../../app/ui/failures.py" line="55"/>
        <source>Settings…</source>
        <translation>设置…</translation>
    </message>
    <message>
        <location filename="../../app/ui/failures.py" line="56"/>
        <source>New chat</source>
        <translation>新对话</translation>
    </message>
</context>
<context>
    <name>FileActions</name>
    <message>
        <location filename="../../app/ui/file_actions.py" line="38"/>
        <source>Documents (%1)</source>
        <translation>文档 (%1)</translation>
    </message>
    <message>
        <location filename="../../app/ui/file_actions.py" line="39"/>
        <source>All files (*)</source>
        <translation>所有文件 (*)</translation>
    </message>
</context>
<context>
    <name>FilesView</name>
    <message>
        <location filename="../../app/ui/pages/files.py" line="168"/>
        <source>Files found</source>
        <translation>找到的文件</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/files.py" line="193"/>
        <source>Files</source>
        <translation>文件</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/files.py" line="194"/>
        <source>Add folder…</source>
        <translation>添加文件夹…</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/files.py" line="195"/>
        <source>Search file names and contents</source>
        <translation>搜索文件名和内容</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/files.py" line="196"/>
        <source>Search files</source>
        <translation>搜索文件</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/files.py" line="197"/>
        <source>Documents</source>
        <translation>文档</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/files.py" line="197"/>
        <source>Spreadsheets</source>
        <translation>表格</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/files.py" line="198"/>
        <source>Presentations</source>
        <translation>演示文稿</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/files.py" line="198"/>
        <source>Images</source>
        <translation>图片</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/files.py" line="199"/>
        <location filename="../../app/ui/pages/files.py" line="205"/>
        <source>Audio</source>
        <translation>音频</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/files.py" line="199"/>
        <source>Videos</source>
        <translation>视频</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/files.py" line="200"/>
        <source>Archives</source>
        <translation>压缩包</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/files.py" line="200"/>
        <location filename="../../app/ui/pages/files.py" line="206"/>
        <source>Code</source>
        <translation>代码</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/files.py" line="201"/>
        <location filename="../../app/ui/pages/files.py" line="206"/>
        <source>Other</source>
        <translation>其他</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/files.py" line="203"/>
        <source>Document</source>
        <translation>文档</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/files.py" line="203"/>
        <source>Spreadsheet</source>
        <translation>表格</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/files.py" line="204"/>
        <source>Presentation</source>
        <translation>演示文稿</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/files.py" line="204"/>
        <source>Image</source>
        <translation>图片</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/files.py" line="205"/>
        <source>Video</source>
        <translation>视频</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/files.py" line="205"/>
        <source>Archive</source>
        <translation>压缩包</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/files.py" line="209"/>
        <source>Any kind</source>
        <translation>任意类型</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/files.py" line="210"/>
        <source>Kind of file</source>
        <translation>文件类型</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/files.py" line="211"/>
        <source>Any time</source>
        <translation>任意时间</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/files.py" line="212"/>
        <source>Today</source>
        <translation>今天</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/files.py" line="212"/>
        <source>Past week</source>
        <translation>过去一周</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/files.py" line="212"/>
        <source>Past month</source>
        <translation>过去一个月</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/files.py" line="213"/>
        <source>Past year</source>
        <translation>过去一年</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/files.py" line="213"/>
        <location filename="../../app/ui/pages/files.py" line="218"/>
        <source>Modified</source>
        <translation>修改时间</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/files.py" line="214"/>
        <source>Any size</source>
        <translation>任意大小</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/files.py" line="215"/>
        <source>Under 1 MB</source>
        <translation>小于 1 MB</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/files.py" line="215"/>
        <source>1 to 100 MB</source>
        <translation>1 到 100 MB</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/files.py" line="216"/>
        <source>Over 100 MB</source>
        <translation>大于 100 MB</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/files.py" line="216"/>
        <location filename="../../app/ui/pages/files.py" line="218"/>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/files.py" line="217"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/files.py" line="217"/>
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/files.py" line="217"/>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/files.py" line="271"/>
        <location filename="../../app/ui/pages/files.py" line="291"/>
        <source>1 file</source>
        <translation>1 个文件</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/files.py" line="271"/>
        <location filename="../../app/ui/pages/files.py" line="291"/>
        <source>%1 files</source>
        <translation>%1 个文件</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/files.py" line="272"/>
        <source>The first %1 files; type more to narrow them down</source>
        <translation>前 %1 个文件；多输入一些以缩小范围</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/files.py" line="278"/>
        <source>File search failed: %1</source>
        <translation>文件搜索失败：%1</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/files.py" line="287"/>
        <source>No folders are chosen for file search yet: add one (Hearth finds files only there).</source>
        <translation>尚未选择用于文件搜索的文件夹：请添加一个（Hearth 只在其中查找文件）。</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/files.py" line="292"/>
        <source>in 1 folder</source>
        <translation>位于 1 个文件夹</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/files.py" line="292"/>
        <source>in %1 folders</source>
        <translation>位于 %1 个文件夹</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/files.py" line="312"/>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/files.py" line="313"/>
        <source>Show in folder</source>
        <translation>在文件夹中显示</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/files.py" line="314"/>
        <source>Add to chat</source>
        <translation>添加到对话</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/files.py" line="318"/>
        <source>Search files in a folder</source>
        <translation>在文件夹中搜索文件</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/files.py" line="335"/>
        <source>Reading %1…</source>
        <translation>正在读取 %1…</translation>
    </message>
</context>
<context>
    <name>FolderList</name>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="60"/>
        <source>Add…</source>
        <translation>添加…</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="61"/>
        <source>Add a folder to %1</source>
        <translation>向「%1」添加文件夹</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="57"/>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="58"/>
        <source>Remove the selected folder from %1</source>
        <translation>从「%1」移除所选文件夹</translation>
    </message>
</context>
<context>
    <name>GenerationTab</name>
    <message>
        <location filename="../../app/ui/settings/generation.py" line="25"/>
        <source>Answering a message</source>
        <translation>回答消息</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/generation.py" line="27"/>
        <source>Temperature when answering a message</source>
        <translation>回答消息时的温度</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/generation.py" line="28"/>
        <location filename="../../app/ui/settings/generation.py" line="34"/>
        <source>Temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/generation.py" line="30"/>
        <location filename="../../app/ui/settings/generation.py" line="36"/>
        <source>Top p / top k</source>
        <translation>Top p / top k</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/generation.py" line="31"/>
        <source>Steps after a tool result</source>
        <translation>工具结果之后的步骤</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/generation.py" line="33"/>
        <source>Temperature after a tool result</source>
        <translation>工具结果之后的温度</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/generation.py" line="37"/>
        <source>Thinking budget (tokens; 0 answers without thinking)</source>
        <translation>思考预算（token；0 表示不思考直接回答）</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/generation.py" line="38"/>
        <source>Chat</source>
        <translation>对话</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/generation.py" line="38"/>
        <source>Quick ask</source>
        <translation>快速提问</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/generation.py" line="38"/>
        <source>Tool steps</source>
        <translation>工具步骤</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/generation.py" line="39"/>
        <source>Titles</source>
        <translation>标题</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/generation.py" line="43"/>
        <source>Thinking budget: %1</source>
        <translation>思考预算：%1</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/generation.py" line="47"/>
        <source>When the reasoning reaches its budget, or goes in circles, Hearth closes it and the model answers (&quot;Thinking was cut short&quot;).</source>
        <translation>当推理达到预算或陷入循环时，Hearth 会结束推理并让模型作答（“思考被提前结束”）。</translation>
    </message>
</context>
<context>
    <name>GlobalHotkey</name>
    <message>
        <location filename="../../app/ui/shell/hotkey/__init__.py" line="62"/>
        <source>No global shortcut set.</source>
        <translation>未设置全局快捷键。</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/hotkey/__init__.py" line="69"/>
        <source>“%1” is not a key combination.</source>
        <translation>“%1”不是有效的组合键。</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/hotkey/__init__.py" line="72"/>
        <source>Use at least one of Ctrl, Alt/Option or the Windows/Cmd key, so ordinary typing is not captured.</source>
        <translation>请至少包含 Ctrl、Alt/Option 或 Windows/Cmd 键之一，以免拦截正常输入。</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/hotkey/__init__.py" line="90"/>
        <source>Wayland does not let apps grab keys. Add a shortcut in your desktop&apos;s keyboard settings that runs: hearth --toggle</source>
        <translation>Wayland 不允许应用抢占按键。请在桌面的键盘设置中添加一个快捷键，运行：hearth --toggle</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/hotkey/__init__.py" line="93"/>
        <source>Global shortcuts are not available on this display (%1). Bind “hearth --toggle” to a key in your system settings.</source>
        <translation>此显示环境（%1）不支持全局快捷键。请在系统设置中把“hearth --toggle”绑定到一个按键。</translation>
    </message>
</context>
<context>
    <name>HelpMenu</name>
    <message>
        <location filename="../../app/ui/shell/help_menu.py" line="35"/>
        <source>Quick ask, from any app</source>
        <translation>快速提问（在任何应用中）</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/help_menu.py" line="48"/>
        <source>Send</source>
        <translation>发送</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/help_menu.py" line="49"/>
        <source>New line in a message</source>
        <translation>消息中换行</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/help_menu.py" line="38"/>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/sidebar.py" line="94"/>
        <source>Search all chats</source>
        <translation>搜索所有对话</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/sidebar.py" line="118"/>
        <source>Rename the chosen chat</source>
        <translation>重命名所选对话</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/sidebar.py" line="121"/>
        <source>Delete the chosen chat</source>
        <translation>删除所选对话</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/composer.py" line="81"/>
        <source>Think before answering, on or off</source>
        <translation>开启或关闭“回答前先思考”</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/chat_view.py" line="82"/>
        <source>Stop an answer</source>
        <translation>停止回答</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/help_menu.py" line="60"/>
        <source>Model: %1</source>
        <translation>模型：%1</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/help_menu.py" line="61"/>
        <source>Your chats, memories and settings: %1</source>
        <translation>你的对话、记忆和设置：%1</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/help_menu.py" line="62"/>
        <source>A private assistant that runs entirely on this computer.</source>
        <translation>一个完全在这台电脑上运行的私人助手。</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/help_menu.py" line="66"/>
        <source>About Hearth</source>
        <translation>关于 Hearth</translation>
    </message>
</context>
<context>
    <name>History</name>
    <message>
        <location filename="../../app/ui/chat/history_view.py" line="21"/>
        <source>The app closed before this answer finished.</source>
        <translation>应用在此回答完成前已关闭。</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/history_view.py" line="22"/>
        <source>Stopped.</source>
        <translation>已停止。</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/history_view.py" line="23"/>
        <source>This answer failed.</source>
        <translation>此回答失败。</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/history_view.py" line="29"/>
        <source>Thinking was cut short.</source>
        <translation>思考被提前结束。</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/history_view.py" line="30"/>
        <source>The answer was stopped because it kept repeating itself.</source>
        <translation>回答一直在重复，已被停止。</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/history_view.py" line="32"/>
        <source>Stopped: the same tool call kept repeating.</source>
        <translation>已停止：同一个工具调用一再重复。</translation>
    </message>
</context>
<context>
    <name>HistoryEraser</name>
    <message>
        <location filename="../../app/ui/settings/forget_history.py" line="39"/>
        <source>Could not read your conversations</source>
        <translation>无法读取你的对话</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/forget_history.py" line="49"/>
        <location filename="../../app/ui/settings/forget_history.py" line="63"/>
        <source>Delete all history</source>
        <translation>删除全部历史记录</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/forget_history.py" line="50"/>
        <source>There is no history to delete.</source>
        <translation>没有可删除的历史记录。</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/forget_history.py" line="53"/>
        <source>Delete your conversation for good?</source>
        <translation>永久删除你的对话？</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/forget_history.py" line="54"/>
        <source>Delete all %1 conversations for good?</source>
        <translation>永久删除全部 %1 个对话？</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/forget_history.py" line="55"/>
        <source>Their messages, the documents dropped into them, the model&apos;s saved memory of them (KV caches) and their search entries are forgotten. This cannot be undone.</source>
        <translation>它们的消息、拖入其中的文档、模型保存的对话记忆（KV 缓存）和搜索条目都会被清除。此操作无法撤销。</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/forget_history.py" line="64"/>
        <source>Delete all</source>
        <translation>全部删除</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/forget_history.py" line="89"/>
        <source>Could not delete the history</source>
        <translation>无法删除历史记录</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/forget_history.py" line="67"/>
        <source>Also forget the one thing Hearth remembers from them</source>
        <translation>同时忘记 Hearth 从中记住的一件事</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/forget_history.py" line="68"/>
        <source>Also forget the %1 things Hearth remembers from them</source>
        <translation>同时忘记 Hearth 从中记住的 %1 件事</translation>
    </message>
</context>
<context>
    <name>ImportIssue</name>
    <message>
        <location filename="../../app/ui/pages/calendar/import_words.py" line="54"/>
        <source>line ignored: not an iCalendar content line</source>
        <translation>略过了一行不是 iCalendar 格式的内容</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/import_words.py" line="56"/>
        <source>not an iCalendar content line: %1</source>
        <translation>不是 iCalendar 格式的行：%1</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/import_words.py" line="57"/>
        <source>components nested more than %1 deep</source>
        <translation>组件嵌套超过 %1 层</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/import_words.py" line="58"/>
        <source>more than %1 components: the rest of the file was not read</source>
        <translation>组件超过 %1 个：文件其余部分未读取</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/import_words.py" line="60"/>
        <source>END:%1 closes nothing that is open</source>
        <translation>END:%1 没有对应的开始</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/import_words.py" line="61"/>
        <source>END:%1 before END:%2</source>
        <translation>END:%1 出现在 END:%2 之前</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/import_words.py" line="62"/>
        <source>more than %1 lines in one component</source>
        <translation>一个组件中超过 %1 行</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/import_words.py" line="63"/>
        <source>the file ends before END:%1 (it looks cut off)</source>
        <translation>文件在 END:%1 之前就结束了（似乎被截断）</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/import_words.py" line="65"/>
        <source>%1 is missing</source>
        <translation>缺少 %1</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/import_words.py" line="66"/>
        <source>%1 is not a date or time</source>
        <translation>%1 不是日期或时间</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/import_words.py" line="67"/>
        <source>%1 cannot be read: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/import_words.py" line="68"/>
        <source>cannot be read</source>
        <translation>无法读取此日程</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/import_words.py" line="69"/>
        <source>unknown time zone %1: read as %2</source>
        <translation>未知时区 %1：按 %2 读取</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/import_words.py" line="70"/>
        <source>cannot be read: the event is given its default length</source>
        <translation>无法读取结束时间：日程使用默认时长</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/import_words.py" line="72"/>
        <source>end is a date while start is a time (or the reverse): matched</source>
        <translation>结束是日期而开始是时间（或相反）：已统一</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/import_words.py" line="75"/>
        <source>end before start: start and end swapped</source>
        <translation>结束早于开始：已对调</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/import_words.py" line="76"/>
        <source>all-day event ends when it starts: read as one day</source>
        <translation>全天日程的结束与开始相同：按一天读取</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/import_words.py" line="78"/>
        <source>empty RRULE ignored</source>
        <translation>略过了空的 RRULE（重复规则）</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/import_words.py" line="79"/>
        <source>the same RRULE written twice: kept once</source>
        <translation>同一条 RRULE（重复规则）写了两次：只保留一条</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/import_words.py" line="80"/>
        <source>repeats in a time zone of the file&apos;s own that no IANA zone follows: its %1 repetitions were listed one by one</source>
        <translation>按文件自带的、没有对应 IANA 时区的时区重复：已逐一列出 %1 次重复</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/import_words.py" line="97"/>
        <source>line %1</source>
        <translation>第 %1 行</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/import_words.py" line="98"/>
        <source>the file</source>
        <translation>文件</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/import_words.py" line="101"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/import_words.py" line="109"/>
        <source>it is not an iCalendar file (no BEGIN:VCALENDAR found).</source>
        <translation>它不是 iCalendar 文件（找不到 BEGIN:VCALENDAR）。</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/import_words.py" line="111"/>
        <source>it is %1 MB; Hearth imports calendar files up to %2 MB (split it, or export a shorter range).</source>
        <translation>文件有 %1 MB；Hearth 只导入不超过 %2 MB 的日历文件（请拆分文件，或导出较短的时间范围）。</translation>
    </message>
</context>
<context>
    <name>KeptReason</name>
    <message>
        <location filename="../../app/ui/pages/calendar/import_words.py" line="20"/>
        <source>%1: kept as you deleted it in Hearth (the file&apos;s copy is not newer)</source>
        <translation>%1：保持你在 Hearth 中删除的状态（文件中的版本并不更新）</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/import_words.py" line="22"/>
        <source>%1: kept as you changed it in Hearth (the file&apos;s copy is not newer)</source>
        <translation>%1：保留你在 Hearth 中的修改（文件中的版本并不更新）</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/import_words.py" line="25"/>
        <source>%1: deleted in Hearth, changed in the file; took the file&apos;s version</source>
        <translation>%1：已在 Hearth 中删除，文件中又有改动；采用了文件中的版本</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/import_words.py" line="27"/>
        <source>%1: changed in Hearth and in the file; took the file&apos;s version</source>
        <translation>%1：Hearth 和文件中都有改动；采用了文件中的版本</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/import_words.py" line="30"/>
        <source>%1: changed in Hearth and in the file; kept both</source>
        <translation>%1：Hearth 和文件中都有改动；两个版本都保留了</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/import_words.py" line="31"/>
        <source>%1: deleted in Hearth, changed in the file; kept it deleted</source>
        <translation>%1：已在 Hearth 中删除，文件中又有改动；保持删除</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/import_words.py" line="33"/>
        <source>%1: changed in Hearth and in the file; kept yours</source>
        <translation>%1：Hearth 和文件中都有改动；保留了你的版本</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/import_words.py" line="39"/>
        <source>&apos;%1&apos;</source>
        <translation>“%1”</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/import_words.py" line="41"/>
        <source>&apos;%1&apos; on %2</source>
        <translation>%2 的“%1”</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/import_words.py" line="47"/>
        <source>%1 (you chose)</source>
        <translation>%1（你的选择）</translation>
    </message>
</context>
<context>
    <name>LibraryView</name>
    <message>
        <location filename="../../app/ui/pages/library.py" line="82"/>
        <source>Reading the library…</source>
        <translation>正在读取资料库…</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/library.py" line="93"/>
        <source>Documents</source>
        <translation>文档</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/library.py" line="94"/>
        <location filename="../../app/ui/pages/library.py" line="140"/>
        <source>Watched folders</source>
        <translation>监视的文件夹</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/library.py" line="95"/>
        <location filename="../../app/ui/pages/library.py" line="193"/>
        <source>Problems</source>
        <translation>问题</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/library.py" line="102"/>
        <source>Library</source>
        <translation>资料库</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/library.py" line="104"/>
        <source>Re-index now</source>
        <translation>立即重建索引</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/library.py" line="110"/>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/library.py" line="110"/>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/library.py" line="111"/>
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/library.py" line="110"/>
        <source>Length</source>
        <translation>长度</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/library.py" line="84"/>
        <location filename="../../app/ui/pages/library.py" line="85"/>
        <source>Search inside your documents</source>
        <translation>在文档内容中搜索</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/library.py" line="103"/>
        <source>Add files…</source>
        <translation>添加文件…</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/library.py" line="110"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/library.py" line="125"/>
        <source>Indexed documents</source>
        <translation>已索引的文档</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/library.py" line="130"/>
        <source>Passages found</source>
        <translation>找到的段落</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/library.py" line="142"/>
        <source>Add folder…</source>
        <translation>添加文件夹…</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/library.py" line="143"/>
        <source>Stop watching</source>
        <translation>停止监视</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/library.py" line="149"/>
        <source>Files that could not be read</source>
        <translation>无法读取的文件</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/library.py" line="173"/>
        <source>1 document</source>
        <translation>1 个文档</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/library.py" line="173"/>
        <source>%1 documents</source>
        <translation>%1 个文档</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/library.py" line="174"/>
        <source>1 passage</source>
        <translation>1 个段落</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/library.py" line="175"/>
        <source>%1 passages</source>
        <translation>%1 个段落</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/library.py" line="177"/>
        <source>1 only in a chat</source>
        <translation>1 个仅在对话中</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/library.py" line="178"/>
        <source>%1 only in chats</source>
        <translation>%1 个仅在对话中</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/library.py" line="180"/>
        <source>No documents yet: add files, watch a folder in Settings, or drop files on a chat to ask about them.</source>
        <translation>还没有文档：添加文件、在设置中监视一个文件夹，或把文件拖到对话里来提问。</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/library.py" line="183"/>
        <source>paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/library.py" line="218"/>
        <source>Skipped: %1</source>
        <translation>已跳过：%1</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/library.py" line="219"/>
        <source>unreadable</source>
        <translation>无法读取</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/library.py" line="221"/>
        <source>Indexed · watching its folder</source>
        <translation>已索引 · 正在监视其文件夹</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/library.py" line="223"/>
        <source>Indexed · only in a chat</source>
        <translation>已索引 · 仅在对话中</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/library.py" line="224"/>
        <source>Indexed</source>
        <translation>已索引</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/library.py" line="229"/>
        <source>Text</source>
        <translation>文本</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/library.py" line="234"/>
        <source>1 page</source>
        <translation>1 页</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/library.py" line="234"/>
        <source>%1 pages</source>
        <translation>%1 页</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/library.py" line="235"/>
        <source>1 sheet</source>
        <translation>1 个工作表</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/library.py" line="235"/>
        <source>%1 sheets</source>
        <translation>%1 个工作表</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/library.py" line="236"/>
        <source>1 slide</source>
        <translation>1 张幻灯片</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/library.py" line="236"/>
        <source>%1 slides</source>
        <translation>%1 张幻灯片</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/library.py" line="240"/>
        <source>The library could not be read: %1</source>
        <translation>无法读取资料库：%1</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/library.py" line="265"/>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/library.py" line="266"/>
        <source>Show in folder</source>
        <translation>在文件夹中显示</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/library.py" line="268"/>
        <source>Re-index</source>
        <translation>重新索引</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/library.py" line="269"/>
        <source>Remove from Hearth…</source>
        <translation>从 Hearth 中移除…</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/library.py" line="274"/>
        <source>Reading %1 again…</source>
        <translation>正在重新读取 %1…</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/library.py" line="280"/>
        <source>Remove from Hearth</source>
        <translation>从 Hearth 中移除</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/library.py" line="281"/>
        <source>Remove “%1” from Hearth? Its passages are forgotten; the file itself stays where it is.</source>
        <translation>要从 Hearth 中移除“%1”吗？其段落将被遗忘，文件本身保留在原处。</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/library.py" line="283"/>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/library.py" line="291"/>
        <source>Add files to the library</source>
        <translation>将文件添加到资料库</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/library.py" line="317"/>
        <source>No passage matches “%1”.</source>
        <translation>没有段落匹配“%1”。</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/library.py" line="339"/>
        <source>Indexing %1 of %2: %3</source>
        <translation>正在索引第 %1 个，共 %2 个：%3</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/library.py" line="351"/>
        <source>Watch a folder</source>
        <translation>监视文件夹</translation>
    </message>
</context>
<context>
    <name>LocalModels</name>
    <message>
        <location filename="../../app/ui/models/manager.py" line="570"/>
        <source>On this computer</source>
        <translation>这台电脑上的模型</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/manager.py" line="584"/>
        <source>In use</source>
        <translation>使用中</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/manager.py" line="584"/>
        <source>Loading…</source>
        <translation>正在加载…</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/manager.py" line="586"/>
        <source>Use</source>
        <translation>使用</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/manager.py" line="586"/>
        <source>Not found</source>
        <translation>找不到文件</translation>
    </message>
</context>
<context>
    <name>MacHotkey</name>
    <message>
        <location filename="../../app/ui/shell/hotkey/macos.py" line="62"/>
        <source>Choose a letter, digit, Space or F1–F12.</source>
        <translation>请选择字母、数字、空格或 F1–F12。</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/hotkey/macos.py" line="70"/>
        <source>%1 opens Quick ask from anywhere.</source>
        <translation>在任何地方按 %1 即可打开快速提问。</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/hotkey/macos.py" line="73"/>
        <source>%1 is already used by another app. Choose another combination.</source>
        <translation>%1 已被其他应用占用，请换一个组合键。</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/hotkey/macos.py" line="75"/>
        <source>macOS refused the shortcut (error %1). On macOS 15.0–15.1 Option-only shortcuts are refused; add Cmd or Ctrl.</source>
        <translation>macOS 拒绝了该快捷键（错误 %1）。macOS 15.0–15.1 不接受仅含 Option 的快捷键，请加上 Cmd 或 Ctrl。</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../app/ui/shell/main_window.py" line="141"/>
        <location filename="../../app/ui/shell/main_window.py" line="511"/>
        <source>No model loaded</source>
        <translation>未加载模型</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/main_window.py" line="146"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/main_window.py" line="147"/>
        <source>Context used</source>
        <translation>已用上下文</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/main_window.py" line="148"/>
        <source>Speed of the last answer</source>
        <translation>上次回答的速度</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/main_window.py" line="149"/>
        <source>Assistant</source>
        <translation>助手</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/main_window.py" line="150"/>
        <source>Other apps</source>
        <translation>其他应用</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/main_window.py" line="151"/>
        <source>Model download</source>
        <translation>模型下载</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/main_window.py" line="176"/>
        <source>API: %1 in queue</source>
        <translation>API：排队 %1 个</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/main_window.py" line="177"/>
        <source>API: on</source>
        <translation>API：已开启</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/main_window.py" line="186"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/main_window.py" line="187"/>
        <source>&amp;New chat</source>
        <translation>新对话(&amp;N)</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/main_window.py" line="189"/>
        <source>&amp;Add files to this chat…</source>
        <translation>向此对话添加文件(&amp;A)…</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/main_window.py" line="191"/>
        <source>&amp;Export this chat…</source>
        <translation>导出此对话(&amp;E)…</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/main_window.py" line="193"/>
        <source>&amp;Quit Hearth</source>
        <translation>退出 Hearth(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/main_window.py" line="198"/>
        <source>&amp;View</source>
        <translation>查看(&amp;V)</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/main_window.py" line="200"/>
        <source>&amp;Chat</source>
        <translation>对话(&amp;C)</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/main_window.py" line="200"/>
        <source>&amp;Library</source>
        <translation>资料库(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/main_window.py" line="201"/>
        <source>C&amp;alendar</source>
        <translation>日历(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/main_window.py" line="201"/>
        <source>&amp;Files</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/main_window.py" line="202"/>
        <source>&amp;Routines</source>
        <translation>例行任务(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/main_window.py" line="206"/>
        <source>&amp;Search chats</source>
        <translation>搜索对话(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/main_window.py" line="208"/>
        <source>&amp;Model</source>
        <translation>模型(&amp;M)</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/main_window.py" line="209"/>
        <source>&amp;Models…</source>
        <translation>模型管理(&amp;M)…</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/main_window.py" line="210"/>
        <source>Settings…</source>
        <translation>设置…</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/main_window.py" line="213"/>
        <source>S&amp;top answer</source>
        <translation>停止回答(&amp;T)</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/main_window.py" line="214"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/main_window.py" line="215"/>
        <source>&amp;Keyboard shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/main_window.py" line="217"/>
        <source>&amp;About Hearth</source>
        <translation>关于 Hearth(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/main_window.py" line="419"/>
        <source>Could not save settings</source>
        <translation>无法保存设置</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/main_window.py" line="426"/>
        <source>No model yet. Hearth needs a model to answer: download one or open a file you have.</source>
        <translation>还没有模型。Hearth 需要模型才能回答：请下载一个，或打开已有的模型文件。</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/main_window.py" line="429"/>
        <source>Loading the model…</source>
        <translation>正在加载模型…</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/main_window.py" line="453"/>
        <source>remote</source>
        <translation>远程</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/main_window.py" line="499"/>
        <source>Ready</source>
        <translation>就绪</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/main_window.py" line="503"/>
        <source>Preparing the assistant… %1%</source>
        <translation>正在准备助手… %1%</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/main_window.py" line="513"/>
        <source>No model is loaded now.</source>
        <translation>现在没有加载任何模型。</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/main_window.py" line="516"/>
        <source>%1 is still loaded and answers.</source>
        <translation>%1 仍然处于加载状态，由它继续回答。</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/main_window.py" line="533"/>
        <source>%1 tok/s</source>
        <translation>%1 token/秒</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/main_window.py" line="544"/>
        <source>Context %1 / %2</source>
        <translation>上下文 %1 / %2</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/main_window.py" line="547"/>
        <source> · your message: its start and end, the rest as a document</source>
        <translation> · 你的消息：模型读到开头和结尾，其余作为文档</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/main_window.py" line="548"/>
        <source> · earlier messages summarized</source>
        <translation> · 较早的消息已总结</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/main_window.py" line="555"/>
        <source>Add files to this chat</source>
        <translation>向此对话添加文件</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/main_window.py" line="564"/>
        <source>New chat</source>
        <translation>新对话</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/main_window.py" line="567"/>
        <source>Export this chat</source>
        <translation>导出此对话</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/main_window.py" line="569"/>
        <source>Markdown (*.md)</source>
        <translation>Markdown (*.md)</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/main_window.py" line="575"/>
        <source>Could not export the chat</source>
        <translation>无法导出对话</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/main_window.py" line="179"/>
        <source>open to the network at %1</source>
        <translation>已向网络开放：%1</translation>
    </message>
</context>
<context>
    <name>McpServersPage</name>
    <message>
        <location filename="../../app/ui/settings/mcp_servers.py" line="123"/>
        <source>Tool servers (MCP) give Hearth more tools. Hearth asks before running a tool unless you trust its server. Changes take effect the next time Hearth starts.</source>
        <translation>工具服务器（MCP）为 Hearth 提供更多工具。除非你信任该服务器，Hearth 在运行其工具前都会先询问。更改将在下次启动 Hearth 时生效。</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/mcp_servers.py" line="126"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/mcp_servers.py" line="126"/>
        <source>Program or address</source>
        <translation>程序或地址</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/mcp_servers.py" line="127"/>
        <source>Trusted</source>
        <translation>信任</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/mcp_servers.py" line="132"/>
        <source>Tool servers</source>
        <translation>工具服务器</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/mcp_servers.py" line="137"/>
        <source>Add…</source>
        <translation>添加…</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/mcp_servers.py" line="135"/>
        <source>Edit…</source>
        <translation>编辑…</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/mcp_servers.py" line="136"/>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/mcp_servers.py" line="150"/>
        <source>Yes</source>
        <translation>是</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/mcp_servers.py" line="150"/>
        <source>Asks first</source>
        <translation>先询问</translation>
    </message>
</context>
<context>
    <name>MemoryTab</name>
    <message>
        <location filename="../../app/ui/settings/memory.py" line="77"/>
        <source>Use memory in every new chat</source>
        <translation>在每个新对话中使用记忆</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/memory.py" line="81"/>
        <source>Remember without asking what I tell Hearth myself</source>
        <translation>我亲口告诉 Hearth 的事，不必询问直接记住</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/memory.py" line="86"/>
        <source>Anything Hearth read in a document, file, event or tool result always asks first.</source>
        <translation>凡是 Hearth 从文档、文件、日程或工具结果中读到的内容，都会先征求你的同意。</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/memory.py" line="87"/>
        <location filename="../../app/ui/settings/memory.py" line="92"/>
        <source>Standing instructions</source>
        <translation>长期指示</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/memory.py" line="91"/>
        <source>For example: always answer in metric; I&apos;m a nurse on night shifts.</source>
        <translation>例如：始终使用公制单位；我是上夜班的护士。</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/memory.py" line="97"/>
        <source>What Hearth remembers about you</source>
        <translation>Hearth 记得的关于你的事</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/memory.py" line="99"/>
        <location filename="../../app/ui/settings/memory.py" line="100"/>
        <source>Search memories</source>
        <translation>搜索记忆</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/memory.py" line="132"/>
        <source>Memory</source>
        <translation>记忆</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/memory.py" line="132"/>
        <source>From</source>
        <translation>来源</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/memory.py" line="132"/>
        <source>Added</source>
        <translation>添加日期</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/memory.py" line="133"/>
        <source>Memories</source>
        <translation>记忆</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/memory.py" line="141"/>
        <source>Edit</source>
        <translation>编辑</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/memory.py" line="142"/>
        <source>Open its chat</source>
        <translation>打开来源对话</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/memory.py" line="143"/>
        <source>Forget…</source>
        <translation>忘记…</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/memory.py" line="144"/>
        <source>Forget all…</source>
        <translation>全部忘记…</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/memory.py" line="154"/>
        <source>Could not read your memories</source>
        <translation>无法读取你的记忆</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/memory.py" line="168"/>
        <source>1 memory.</source>
        <translation>1 条记忆。</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/memory.py" line="168"/>
        <source>%1 memories.</source>
        <translation>%1 条记忆。</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/memory.py" line="169"/>
        <source>Nothing remembered yet.</source>
        <translation>还没有记住任何事。</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/memory.py" line="201"/>
        <source>Typed by you</source>
        <translation>你亲自输入</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/memory.py" line="203"/>
        <source>A deleted chat</source>
        <translation>已删除的对话</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/memory.py" line="204"/>
        <source>New chat</source>
        <translation>新对话</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/memory.py" line="248"/>
        <source>Memory not changed</source>
        <translation>记忆未更改</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/memory.py" line="263"/>
        <source>Forget this?</source>
        <translation>忘记这一条？</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/memory.py" line="263"/>
        <source>Forget</source>
        <translation>忘记</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/memory.py" line="268"/>
        <source>Forget the one thing Hearth remembers about you?</source>
        <translation>忘记 Hearth 记得的关于你的这一件事？</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/memory.py" line="269"/>
        <source>Forget all %1 things Hearth remembers about you?</source>
        <translation>忘记 Hearth 记得的关于你的全部 %1 件事？</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/memory.py" line="270"/>
        <source>Forget all</source>
        <translation>全部忘记</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/memory.py" line="275"/>
        <source>Forget memories</source>
        <translation>忘记记忆</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/memory.py" line="276"/>
        <source>This cannot be undone.</source>
        <translation>此操作无法撤销。</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/memory.py" line="279"/>
        <source>Could not forget</source>
        <translation>无法忘记</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/memory.py" line="310"/>
        <source>Could not save the standing instructions</source>
        <translation>无法保存长期指示</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/memory.py" line="179"/>
        <source>Last given to the model %1</source>
        <translation>上次提供给模型：%1</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/memory.py" line="181"/>
        <source>Not given to the model yet</source>
        <translation>尚未提供给模型</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/memory.py" line="296"/>
        <source>The standing instructions hold at most %1 characters; these have %2. Shorten them to save.</source>
        <translation>长期指示最多 %1 个字符，当前有 %2 个。请缩短后再保存。</translation>
    </message>
</context>
<context>
    <name>MessageText</name>
    <message>
        <location filename="../../app/ui/chat/text_view.py" line="80"/>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
</context>
<context>
    <name>ModelCatalog</name>
    <message>
        <location filename="../../app/ui/models/manager.py" line="48"/>
        <source>GGUF for llama.cpp. Good quality, fastest on most computers.</source>
        <translation>用于 llama.cpp 的 GGUF。质量好，在大多数电脑上最快。</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/manager.py" line="50"/>
        <source>GGUF for llama.cpp. Closest to the original; needs more memory.</source>
        <translation>用于 llama.cpp 的 GGUF。最接近原始模型；需要更多内存。</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/manager.py" line="52"/>
        <source>For Apple Silicon Macs (MLX). The fastest choice on a Mac.</source>
        <translation>适用于 Apple Silicon Mac（MLX）。在 Mac 上最快。</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/manager.py" line="54"/>
        <source>For Apple Silicon Macs (MLX). Higher quality, more memory.</source>
        <translation>适用于 Apple Silicon Mac（MLX）。质量更高，占用内存更多。</translation>
    </message>
</context>
<context>
    <name>ModelManager</name>
    <message>
        <location filename="../../app/ui/models/manager.py" line="453"/>
        <source>Use the %1 template</source>
        <translation>使用 %1 模板</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/manager.py" line="316"/>
        <source>Models — Hearth</source>
        <translation>模型 — Hearth</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/manager.py" line="335"/>
        <source>Choose a template file…</source>
        <translation>选择模板文件…</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/manager.py" line="366"/>
        <source>Welcome to Hearth</source>
        <translation>欢迎使用 Hearth</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/manager.py" line="366"/>
        <source>Models</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/manager.py" line="368"/>
        <source>Hearth answers with Nanbeige4.2-3B, running entirely on this computer; nothing you ask leaves it. There is no model here yet: download one below (Q4_K_M is a good start) or open one you already have.</source>
        <translation>Hearth 使用完全在本机运行的 Nanbeige4.2-3B 回答问题，你问的任何内容都不会离开这台电脑。这里还没有模型：请在下方下载一个（推荐从 Q4_K_M 开始），或打开你已有的模型。</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/manager.py" line="372"/>
        <source>Download a build of Nanbeige4.2-3B or open one you already have. Downloads resume where they stopped and are checked before use.</source>
        <translation>下载 Nanbeige4.2-3B 的某个版本，或打开已有的模型。下载可断点续传，使用前会校验。</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/manager.py" line="389"/>
        <source>Open a GGUF file…</source>
        <translation>打开 GGUF 文件…</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/manager.py" line="390"/>
        <source>Open an MLX folder…</source>
        <translation>打开 MLX 文件夹…</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/manager.py" line="391"/>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/manager.py" line="415"/>
        <source>Open a GGUF model</source>
        <translation>打开 GGUF 模型</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/manager.py" line="416"/>
        <source>GGUF models (*.gguf)</source>
        <translation>GGUF 模型 (*.gguf)</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/manager.py" line="436"/>
        <source>“%1” cannot be used: it is not a complete GGUF model file.</source>
        <translation>无法使用“%1”：它不是完整的 GGUF 模型文件。</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/manager.py" line="449"/>
        <source>“%1” has no usable chat template of its own. Its architecture is known: Hearth can hold a conversation with it using the %2 template, or one you choose.</source>
        <translation>“%1”自身没有可用的对话模板。它的架构是已知的：Hearth 可以使用 %2 模板或您选择的模板与它对话。</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/manager.py" line="456"/>
        <source>“%1” has no usable chat template, and Hearth has none built in for its architecture (%2), so it cannot hold a conversation with it. Choose the model&apos;s chat template file (.jinja), or a chat (instruct) build of the model, such as Nanbeige4.2-3B above.</source>
        <translation>“%1”没有可用的对话模板，Hearth 也没有为其架构（%2）内置模板，因此无法与它对话。请选择该模型的对话模板文件（.jinja），或选择该模型的对话（指令）版本，例如上方的 Nanbeige4.2-3B。</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/manager.py" line="470"/>
        <source>Choose a chat template</source>
        <translation>选择对话模板</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/manager.py" line="471"/>
        <source>Chat templates (*.jinja *.j2 *.txt)</source>
        <translation>对话模板 (*.jinja *.j2 *.txt)</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/manager.py" line="489"/>
        <source>“%1” is not a chat template Hearth can use.</source>
        <translation>“%1”不是 Hearth 可以使用的对话模板。</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/manager.py" line="509"/>
        <source>Open an MLX model folder</source>
        <translation>打开 MLX 模型文件夹</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/manager.py" line="514"/>
        <source>That folder has no config.json, so it is not an MLX model.</source>
        <translation>该文件夹没有 config.json，不是 MLX 模型。</translation>
    </message>
</context>
<context>
    <name>ModelPicker</name>
    <message>
        <location filename="../../app/ui/models/picker.py" line="57"/>
        <source>%1 (server)</source>
        <translation>%1（服务器）</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/picker.py" line="60"/>
        <location filename="../../app/ui/models/picker.py" line="61"/>
        <source>No model loaded</source>
        <translation>未加载模型</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/picker.py" line="69"/>
        <source>Manage models…</source>
        <translation>管理模型…</translation>
    </message>
    <message>
        <location filename="../../app/ui/models/picker.py" line="71"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
</context>
<context>
    <name>NetworkAccess</name>
    <message>
        <location filename="../../app/ui/settings/network_access.py" line="56"/>
        <source>Allow other devices on this network</source>
        <translation>允许此网络中的其他设备</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/network_access.py" line="64"/>
        <source>Listen on</source>
        <translation>监听地址</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/network_access.py" line="63"/>
        <source>Network address to listen on</source>
        <translation>要监听的网络地址</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/network_access.py" line="60"/>
        <source>Every network (%1)</source>
        <translation>所有网络（%1）</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/network_access.py" line="66"/>
        <source>Anyone on your network who has the key can then use Hearth&apos;s model, and ask to change your calendar (you still allow or refuse each change). Hearth&apos;s Host check then accepts this address. The key is still required. This takes effect when the server restarts (when you save, if it is on).</source>
        <translation>这样，你网络中任何拥有密钥的人都能使用 Hearth 的模型，并请求修改你的日历（每项修改仍由你允许或拒绝）。Hearth 的主机名检查随后会接受这个地址。仍然需要密钥。此设置在服务器重启时生效（保存时，如果服务器已开启）。</translation>
    </message>
</context>
<context>
    <name>Notices</name>
    <message>
        <location filename="../../app/ui/notice_banner.py" line="61"/>
        <source>Your settings were written by another version of Hearth. Settings this version does not know are kept and ignored; values of the wrong type were replaced by their defaults. The file as it was is kept as settings.previous.json. Details: %1</source>
        <translation>您的设置由另一个版本的 Hearth 写入。此版本不认识的设置已保留但不会使用；类型不对的值已替换为默认值。原来的文件保存为 settings.previous.json。详情：%1</translation>
    </message>
    <message>
        <location filename="../../app/ui/notice_banner.py" line="67"/>
        <source>The search index was damaged (%1). It was moved aside as %2 and is being rebuilt; %3 documents will be indexed again.</source>
        <translation>搜索索引已损坏（%1）。它已被移到一旁，保存为 %2，正在重建；%3 个文档将重新编入索引。</translation>
    </message>
    <message>
        <location filename="../../app/ui/notice_banner.py" line="73"/>
        <source>Your chat history is damaged (%1) and was opened read-only: you can read your conversations, but new chats cannot be saved. Recovering copies what can still be read into a new file; the damaged file is kept.</source>
        <translation>您的聊天记录已损坏（%1），已以只读方式打开：您可以阅读对话，但无法保存新的聊天。恢复会把仍可读取的内容复制到一个新文件中；损坏的文件会保留。</translation>
    </message>
    <message>
        <location filename="../../app/ui/notice_banner.py" line="78"/>
        <source>Your chat history could only be opened read-only (%1 cannot be written): you can read your conversations, but new chats cannot be saved.</source>
        <translation>您的聊天记录只能以只读方式打开（无法写入 %1）：您可以阅读对话，但无法保存新的聊天。</translation>
    </message>
    <message>
        <location filename="../../app/ui/notice_banner.py" line="92"/>
        <source>Notice</source>
        <translation>通知</translation>
    </message>
    <message>
        <location filename="../../app/ui/notice_banner.py" line="93"/>
        <source>Recover into a new file</source>
        <translation>恢复到新文件</translation>
    </message>
    <message>
        <location filename="../../app/ui/notice_banner.py" line="99"/>
        <location filename="../../app/ui/notice_banner.py" line="100"/>
        <source>Dismiss</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../../app/ui/notice_banner.py" line="106"/>
        <source>Recovering your chat history…</source>
        <translation>正在恢复聊天记录…</translation>
    </message>
    <message>
        <location filename="../../app/ui/notice_banner.py" line="113"/>
        <source>Recovered %1 rows into a new chat history; the damaged file is kept as %2. Restart Hearth to use the recovered history.</source>
        <translation>已将 %1 行恢复到新的聊天记录中；损坏的文件保存为 %2。请重新启动 Hearth 以使用恢复的记录。</translation>
    </message>
    <message>
        <location filename="../../app/ui/notice_banner.py" line="120"/>
        <source>Nothing could be recovered: %1. Your chat history file is unchanged.</source>
        <translation>无法恢复任何内容：%1。您的聊天记录文件未被更改。</translation>
    </message>
    <message>
        <location filename="../../app/ui/notice_banner.py" line="49"/>
        <source>it cannot be read: %1</source>
        <translation>无法读取：%1</translation>
    </message>
    <message>
        <location filename="../../app/ui/notice_banner.py" line="50"/>
        <source>it is not a SQLite database</source>
        <translation>它不是 SQLite 数据库</translation>
    </message>
    <message>
        <location filename="../../app/ui/notice_banner.py" line="51"/>
        <source>it was cut short</source>
        <translation>文件不完整（被截断）</translation>
    </message>
    <message>
        <location filename="../../app/ui/notice_banner.py" line="52"/>
        <source>it is another program&apos;s database</source>
        <translation>它是其他程序的数据库</translation>
    </message>
    <message>
        <location filename="../../app/ui/notice_banner.py" line="53"/>
        <source>SQLite reports: %1</source>
        <translation>SQLite 报告：%1</translation>
    </message>
    <message>
        <location filename="../../app/ui/notice_banner.py" line="33"/>
        <source>%1: not known to this version (kept)</source>
        <translation>%1：此版本不认识（已保留）</translation>
    </message>
    <message>
        <location filename="../../app/ui/notice_banner.py" line="34"/>
        <source>%1: not the right kind of value (the default is used)</source>
        <translation>%1：值的类型不对（改用默认值）</translation>
    </message>
    <message>
        <location filename="../../app/ui/notice_banner.py" line="36"/>
        <source>%1: not the right kind of value (left out)</source>
        <translation>%1：值的类型不对（已略去）</translation>
    </message>
</context>
<context>
    <name>Notifier</name>
    <message>
        <location filename="../../app/ui/shell/notifications.py" line="108"/>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/notifications.py" line="109"/>
        <source>Snooze %1 min</source>
        <translation>%1 分钟后再提醒</translation>
    </message>
</context>
<context>
    <name>Ops</name>
    <message>
        <location filename="../../app/ui/ops.py" line="98"/>
        <source>Something went wrong</source>
        <translation>出错了</translation>
    </message>
</context>
<context>
    <name>OutputFolder</name>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="91"/>
        <source>Choose…</source>
        <translation>选择…</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="92"/>
        <source>Choose %1</source>
        <translation>选择%1</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="89"/>
        <source>Default</source>
        <translation>默认</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="90"/>
        <source>Use the default for %1</source>
        <translation>%1使用默认值</translation>
    </message>
</context>
<context>
    <name>PdfViewer</name>
    <message>
        <location filename="../../app/ui/pages/pdf_viewer.py" line="38"/>
        <source>PDF document</source>
        <translation>PDF 文档</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/pdf_viewer.py" line="46"/>
        <source>Open in default app</source>
        <translation>用默认应用打开</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/pdf_viewer.py" line="64"/>
        <source>Page %1 of %2</source>
        <translation>第 %1 页，共 %2 页</translation>
    </message>
</context>
<context>
    <name>PendingCard</name>
    <message>
        <location filename="../../app/ui/pending_changes.py" line="26"/>
        <source>A routine asks to make this change:</source>
        <translation>一项例行任务请求做出以下更改：</translation>
    </message>
    <message>
        <location filename="../../app/ui/pending_changes.py" line="27"/>
        <source>Approve</source>
        <translation>批准</translation>
    </message>
    <message>
        <location filename="../../app/ui/pending_changes.py" line="29"/>
        <source>Deny</source>
        <translation>拒绝</translation>
    </message>
</context>
<context>
    <name>PrivacyTab</name>
    <message>
        <location filename="../../app/ui/settings/privacy.py" line="21"/>
        <source>History</source>
        <translation>历史记录</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/privacy.py" line="22"/>
        <source>Your conversations, the documents dropped into them and the model&apos;s memory of them stay on this computer.</source>
        <translation>你的对话、拖入其中的文档以及模型对它们的记忆都只保存在这台电脑上。</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/privacy.py" line="27"/>
        <source>Delete all history…</source>
        <translation>删除全部历史记录…</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/privacy.py" line="28"/>
        <source>Delete all history</source>
        <translation>删除全部历史记录</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/privacy.py" line="37"/>
        <source>1 conversation deleted.</source>
        <translation>已删除 1 个对话。</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/privacy.py" line="38"/>
        <source>%1 conversations deleted.</source>
        <translation>已删除 %1 个对话。</translation>
    </message>
</context>
<context>
    <name>QuickAsk</name>
    <message>
        <location filename="../../app/ui/shell/quick_ask.py" line="61"/>
        <source>Quick ask — Hearth</source>
        <translation>快速提问 — Hearth</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/quick_ask.py" line="89"/>
        <source>Ask Hearth…</source>
        <translation>问问 Hearth…</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/quick_ask.py" line="90"/>
        <source>Quick question</source>
        <translation>快速提问</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/quick_ask.py" line="109"/>
        <source>Enter to ask · Esc to close</source>
        <translation>Enter 提问 · Esc 关闭</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/quick_ask.py" line="112"/>
        <source>Open in Hearth</source>
        <translation>在 Hearth 中打开</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/quick_ask.py" line="116"/>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/quick_ask.py" line="120"/>
        <source>Find files</source>
        <translation>查找文件</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/quick_ask.py" line="121"/>
        <source>Search your files for what you typed, without asking the model</source>
        <translation>直接在你的文件中搜索输入的内容，不经过模型</translation>
    </message>
</context>
<context>
    <name>RepeatScope</name>
    <message>
        <location filename="../../app/ui/pages/calendar/editor.py" line="212"/>
        <source>Delete only this event, this and the following ones, or every one?</source>
        <translation>只删除这一次、这一次及以后的，还是全部？</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/editor.py" line="214"/>
        <source>Change only this event, this and the following ones, or every one?</source>
        <translation>只更改这一次、这一次及以后的，还是全部？</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/editor.py" line="216"/>
        <source>Repeating event</source>
        <translation>重复的日程</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/editor.py" line="219"/>
        <source>This event only</source>
        <translation>仅此一次</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/editor.py" line="220"/>
        <source>This and following</source>
        <translation>此次及以后</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/editor.py" line="221"/>
        <source>All events</source>
        <translation>全部</translation>
    </message>
</context>
<context>
    <name>RoutineDialog</name>
    <message>
        <location filename="../../app/ui/pages/routine_editor.py" line="79"/>
        <source>Edit routine</source>
        <translation>编辑例行任务</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/routine_editor.py" line="79"/>
        <source>New routine</source>
        <translation>新建例行任务</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/routine_editor.py" line="83"/>
        <source>Morning briefing</source>
        <translation>晨间简报</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/routine_editor.py" line="85"/>
        <source>What Hearth is asked each time, e.g. “What is on my calendar today, and which to-dos are due?” Its answer comes as a new chat and a notification.</source>
        <translation>每次运行时向 Hearth 提的问题，例如“我今天的日历上有什么，哪些待办到期了？”回答会以新对话和通知的形式送达。</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/routine_editor.py" line="109"/>
        <source>Once</source>
        <translation>仅一次</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/routine_editor.py" line="109"/>
        <source>Every day</source>
        <translation>每天</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/routine_editor.py" line="109"/>
        <source>Every weekday</source>
        <translation>每个工作日</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/routine_editor.py" line="110"/>
        <source>Every week</source>
        <translation>每周</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/routine_editor.py" line="110"/>
        <source>Every month</source>
        <translation>每月</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/routine_editor.py" line="111"/>
        <source>Custom rule: %1</source>
        <translation>自定义规则：%1</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/routine_editor.py" line="119"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/routine_editor.py" line="119"/>
        <source>Ask</source>
        <translation>提问</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/routine_editor.py" line="120"/>
        <source>First run</source>
        <translation>首次运行</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/routine_editor.py" line="120"/>
        <source>Repeat</source>
        <translation>重复</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/routine_editor.py" line="148"/>
        <source>Next runs: %1</source>
        <translation>接下来的运行：%1</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/routine_editor.py" line="148"/>
        <source>Runs once: %1</source>
        <translation>仅运行一次：%1</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/routine_editor.py" line="150"/>
        <source>This time has passed: it would never run.</source>
        <translation>这个时间已经过去：它将永远不会运行。</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/routine_editor.py" line="156"/>
        <source>Write what Hearth should ask.</source>
        <translation>请写下 Hearth 要问的内容。</translation>
    </message>
</context>
<context>
    <name>Routines</name>
    <message>
        <location filename="../../app/ui/pages/routine_editor.py" line="48"/>
        <source>Once, %1</source>
        <translation>仅一次，%1</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/routine_editor.py" line="51"/>
        <source>Every day at %1</source>
        <translation>每天 %1</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/routine_editor.py" line="53"/>
        <source>Every weekday at %1</source>
        <translation>每个工作日 %1</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/routine_editor.py" line="56"/>
        <source>Every %1 at %2</source>
        <translation>每%1 %2</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/routine_editor.py" line="59"/>
        <source>Every month on day %1 at %2</source>
        <translation>每月 %1 日 %2</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/routine_editor.py" line="61"/>
        <source>Custom rule: %1</source>
        <translation>自定义规则：%1</translation>
    </message>
</context>
<context>
    <name>RoutinesView</name>
    <message>
        <location filename="../../app/ui/pages/routines.py" line="58"/>
        <location filename="../../app/ui/pages/routines.py" line="98"/>
        <source>Routines</source>
        <translation>例行任务</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/routines.py" line="59"/>
        <source>New routine</source>
        <translation>新建例行任务</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/routines.py" line="65"/>
        <source>Waiting for your approval</source>
        <translation>等待你批准</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/routines.py" line="72"/>
        <location filename="../../app/ui/pages/routines.py" line="74"/>
        <source>Run history</source>
        <translation>运行记录</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/routines.py" line="97"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/routines.py" line="97"/>
        <source>When</source>
        <translation>时间</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/routines.py" line="97"/>
        <source>Next run</source>
        <translation>下次运行</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/routines.py" line="104"/>
        <source>Run now</source>
        <translation>立即运行</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/routines.py" line="105"/>
        <source>Edit…</source>
        <translation>编辑…</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/routines.py" line="106"/>
        <location filename="../../app/ui/pages/routines.py" line="162"/>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/routines.py" line="107"/>
        <source>Delete…</source>
        <translation>删除…</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/routines.py" line="131"/>
        <source>Could not read your routines</source>
        <translation>无法读取你的例行任务</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/routines.py" line="140"/>
        <source>Paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/routines.py" line="147"/>
        <source>No routines yet: add one, or ask Hearth in a chat to do something every morning.</source>
        <translation>还没有例行任务：新建一个，或在对话中让 Hearth 每天早上做某件事。</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/routines.py" line="161"/>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/routines.py" line="181"/>
        <source>Running</source>
        <translation>正在运行</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/routines.py" line="181"/>
        <source>Done</source>
        <translation>完成</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/routines.py" line="182"/>
        <source>Waits for your approval</source>
        <translation>等待你批准</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/routines.py" line="183"/>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/routines.py" line="183"/>
        <source>Stopped at its time budget</source>
        <translation>已在时间上限处停止</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/routines.py" line="184"/>
        <source>Interrupted</source>
        <translation>已中断</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/routines.py" line="185"/>
        <source>Stopped: it kept repeating itself</source>
        <translation>已停止：一直在重复</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/routines.py" line="233"/>
        <source>Delete routine</source>
        <translation>删除例行任务</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/routines.py" line="234"/>
        <source>Delete the routine “%1”? Its conversations stay.</source>
        <translation>要删除例行任务“%1”吗？它的对话会保留。</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/routines.py" line="235"/>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/routines.py" line="246"/>
        <source>Running “%1”…</source>
        <translation>正在运行“%1”…</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/routines.py" line="248"/>
        <source>Could not run the routine</source>
        <translation>无法运行该例行任务</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/routines.py" line="257"/>
        <source>Could not save the routine</source>
        <translation>无法保存该例行任务</translation>
    </message>
</context>
<context>
    <name>ServerDialog</name>
    <message>
        <location filename="../../app/ui/settings/mcp_servers.py" line="27"/>
        <source>Give the server a name.</source>
        <translation>请为服务器命名。</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/mcp_servers.py" line="28"/>
        <source>The address must start with http:// or https://.</source>
        <translation>地址必须以 http:// 或 https:// 开头。</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/mcp_servers.py" line="29"/>
        <source>The command has an unclosed quote.</source>
        <translation>命令中有未闭合的引号。</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/mcp_servers.py" line="30"/>
        <source>Give the command that starts the server.</source>
        <translation>请填写启动服务器的命令。</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/mcp_servers.py" line="59"/>
        <source>Tool server</source>
        <translation>工具服务器</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/mcp_servers.py" line="65"/>
        <source>Server name</source>
        <translation>服务器名称</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/mcp_servers.py" line="66"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/mcp_servers.py" line="67"/>
        <source>Start a program</source>
        <translation>启动程序</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/mcp_servers.py" line="68"/>
        <source>Connect to an address</source>
        <translation>连接到地址</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/mcp_servers.py" line="72"/>
        <source>How</source>
        <translation>方式</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/mcp_servers.py" line="75"/>
        <location filename="../../app/ui/settings/mcp_servers.py" line="76"/>
        <source>Command</source>
        <translation>命令</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/mcp_servers.py" line="78"/>
        <location filename="../../app/ui/settings/mcp_servers.py" line="79"/>
        <source>Address</source>
        <translation>地址</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/mcp_servers.py" line="80"/>
        <source>Trust this server: run its tools without asking</source>
        <translation>信任此服务器：运行其工具时不再询问</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/mcp_servers.py" line="108"/>
        <source>Another server already has this name.</source>
        <translation>已有其他服务器使用此名称。</translation>
    </message>
</context>
<context>
    <name>ServerSwitch</name>
    <message>
        <location filename="../../app/ui/settings/api_server.py" line="151"/>
        <source>Another program asks to change your calendar</source>
        <translation>另一个程序请求修改你的日历</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/api_server.py" line="153"/>
        <source>Nothing changes unless you allow it.</source>
        <translation>除非你允许，否则不会有任何更改。</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/api_server.py" line="154"/>
        <source>Allow</source>
        <translation>允许</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/api_server.py" line="155"/>
        <source>Refuse</source>
        <translation>拒绝</translation>
    </message>
</context>
<context>
    <name>Services</name>
    <message>
        <location filename="../../app/ui/shell/services.py" line="67"/>
        <source>Could not index your watched folders</source>
        <translation>无法索引监视的文件夹</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/services.py" line="87"/>
        <source>Could not scan your file search folders</source>
        <translation>无法扫描文件搜索范围</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/services.py" line="116"/>
        <source>To-do due %1</source>
        <translation>待办到期 %1</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/services.py" line="118"/>
        <source>missed while Hearth was closed</source>
        <translation>在 Hearth 关闭期间错过</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/services.py" line="144"/>
        <source>The answer is ready.</source>
        <translation>回答已就绪。</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/services.py" line="145"/>
        <source>Stopped at its time budget.</source>
        <translation>已在时间上限处停止。</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/services.py" line="146"/>
        <source>Stopped before it finished.</source>
        <translation>在完成前已停止。</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/services.py" line="147"/>
        <source>The answer was stopped because it kept repeating itself.</source>
        <translation>回答一直在重复，已被停止。</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/services.py" line="149"/>
        <source>Could not run.</source>
        <translation>无法运行。</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/services.py" line="152"/>
        <source>Waits for your approval: %1</source>
        <translation>等待你批准：%1</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/services.py" line="155"/>
        <source>Missed while Hearth was not running; ran now.</source>
        <translation>Hearth 未运行时错过了，现已运行。</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="220"/>
        <source>Office files Hearth writes (documents, sheets, slides) go to</source>
        <translation>Hearth 生成的办公文件（文档、表格、幻灯片）保存到</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="224"/>
        <source>Folder for office files</source>
        <translation>办公文件文件夹</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="255"/>
        <source>Start Hearth in the tray when I sign in</source>
        <translation>登录时在托盘中启动 Hearth</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="339"/>
        <source>Could not change start at login</source>
        <translation>无法更改登录时启动</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="124"/>
        <source>Settings — Hearth</source>
        <translation>设置 — Hearth</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="142"/>
        <source>Tool servers</source>
        <translation>工具服务器</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="143"/>
        <source>Answers</source>
        <translation>回答</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="144"/>
        <source>Speed</source>
        <translation>速度</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="145"/>
        <source>Privacy</source>
        <translation>隐私</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="146"/>
        <source>Connect another app</source>
        <translation>连接其他应用</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="139"/>
        <location filename="../../app/ui/settings/dialog.py" line="177"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="140"/>
        <source>Folders</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="141"/>
        <source>General</source>
        <translation>通用</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="173"/>
        <source>No model chosen</source>
        <translation>未选择模型</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="174"/>
        <source>Model file or folder</source>
        <translation>模型文件或文件夹</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="176"/>
        <source>Models…</source>
        <translation>模型管理…</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="176"/>
        <source>Manage models</source>
        <translation>管理模型</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="180"/>
        <location filename="../../app/ui/settings/dialog.py" line="182"/>
        <source>Engine</source>
        <translation>引擎</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="178"/>
        <source>Automatic</source>
        <translation>自动</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="178"/>
        <source>Remote server</source>
        <translation>远程服务器</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="184"/>
        <source>Remote server address</source>
        <translation>远程服务器地址</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="186"/>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="191"/>
        <source>Automatic (from free memory)</source>
        <translation>自动（根据可用内存）</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="190"/>
        <source>Context length in tokens</source>
        <translation>上下文长度（token）</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="192"/>
        <source>Context length</source>
        <translation>上下文长度</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="193"/>
        <source>f16 (best quality)</source>
        <translation>f16（质量最好）</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="194"/>
        <source>q8_0 (half the memory)</source>
        <translation>q8_0（内存减半）</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="195"/>
        <source>KV cache precision</source>
        <translation>KV 缓存精度</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="196"/>
        <source>KV cache</source>
        <translation>KV 缓存</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="197"/>
        <source>Each token of context takes 176 KiB at f16 (94 KiB at q8_0): 8K tokens need about 1.4 GiB.</source>
        <translation>每个上下文 token 在 f16 下占 176 KiB（q8_0 下 94 KiB）：8K token 约需 1.4 GiB。</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="199"/>
        <source>Think before answering by default</source>
        <translation>默认回答前先思考</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="201"/>
        <source>Thinking</source>
        <translation>思考</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="208"/>
        <source>Watched folders (documents Hearth can read and cite)</source>
        <translation>监视的文件夹（Hearth 可以阅读并引用其中的文档）</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="209"/>
        <source>Watched folders</source>
        <translation>监视的文件夹</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="212"/>
        <source>File search folders (Hearth finds files only here)</source>
        <translation>文件搜索范围（Hearth 只在这些文件夹中查找文件）</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="213"/>
        <source>File search folders</source>
        <translation>文件搜索范围</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="216"/>
        <source>Left out of file search, e.g. *.log, build/</source>
        <translation>不参与文件搜索的内容，例如 *.log, 草稿/</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="217"/>
        <source>Patterns left out of file search</source>
        <translation>不参与文件搜索的模式</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="236"/>
        <location filename="../../app/ui/settings/dialog.py" line="237"/>
        <source>Quick ask shortcut</source>
        <translation>快速提问快捷键</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="242"/>
        <location filename="../../app/ui/settings/dialog.py" line="245"/>
        <source>Follow the system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="242"/>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="243"/>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="243"/>
        <location filename="../../app/ui/settings/dialog.py" line="244"/>
        <source>Theme</source>
        <translation>主题</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="247"/>
        <location filename="../../app/ui/settings/dialog.py" line="248"/>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="249"/>
        <source>The language changes as soon as you save.</source>
        <translation>保存后语言立即切换。</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="250"/>
        <location filename="../../app/ui/settings/dialog.py" line="252"/>
        <source>Show a test notification</source>
        <translation>显示测试通知</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="250"/>
        <source>Reminders</source>
        <translation>提醒</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="263"/>
        <source>The shortcut is registered while Hearth runs.</source>
        <translation>Hearth 运行时会注册该快捷键。</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="289"/>
        <source>Choose a model to see which engine runs it.</source>
        <translation>选择模型后可查看由哪个引擎运行。</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="342"/>
        <source>Could not save settings</source>
        <translation>无法保存设置</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="143"/>
        <source>Skills</source>
        <translation>技能</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/dialog.py" line="144"/>
        <source>Memory</source>
        <translation>记忆</translation>
    </message>
</context>
<context>
    <name>Sidebar</name>
    <message>
        <location filename="../../app/ui/shell/sidebar.py" line="73"/>
        <location filename="../../app/ui/shell/sidebar.py" line="218"/>
        <location filename="../../app/ui/shell/sidebar.py" line="306"/>
        <location filename="../../app/ui/shell/sidebar.py" line="414"/>
        <source>New chat</source>
        <translation>新对话</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/sidebar.py" line="75"/>
        <source>Start a new conversation (Ctrl+N)</source>
        <translation>开始新对话（Ctrl+N）</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/sidebar.py" line="78"/>
        <source>Search all chats (Ctrl+K)</source>
        <translation>搜索所有对话 (Ctrl+K)</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/sidebar.py" line="79"/>
        <source>Search all chats</source>
        <translation>搜索所有对话</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/sidebar.py" line="111"/>
        <source>Conversations</source>
        <translation>对话</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/sidebar.py" line="136"/>
        <source>Search results</source>
        <translation>搜索结果</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/sidebar.py" line="151"/>
        <source>Library</source>
        <translation>资料库</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/sidebar.py" line="151"/>
        <source>Files</source>
        <translation>文件</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/sidebar.py" line="152"/>
        <source>Calendar</source>
        <translation>日历</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/sidebar.py" line="152"/>
        <source>Routines</source>
        <translation>例行任务</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/sidebar.py" line="153"/>
        <source>Models</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/sidebar.py" line="153"/>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/sidebar.py" line="187"/>
        <source>Could not read your conversations</source>
        <translation>无法读取你的对话</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/sidebar.py" line="200"/>
        <source>Pinned</source>
        <translation>已置顶</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/sidebar.py" line="202"/>
        <source>Recent</source>
        <translation>最近</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/sidebar.py" line="256"/>
        <source>Rename…</source>
        <translation>重命名…</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/sidebar.py" line="258"/>
        <source>Unpin</source>
        <translation>取消置顶</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/sidebar.py" line="258"/>
        <source>Pin</source>
        <translation>置顶</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/sidebar.py" line="261"/>
        <source>Delete…</source>
        <translation>删除…</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/sidebar.py" line="288"/>
        <source>Rename conversation</source>
        <translation>重命名对话</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/sidebar.py" line="289"/>
        <source>Title:</source>
        <translation>标题：</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/sidebar.py" line="308"/>
        <source>Delete conversation</source>
        <translation>删除对话</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/sidebar.py" line="309"/>
        <source>Delete “%1”? Its messages and the files dropped into it are forgotten. This cannot be undone.</source>
        <translation>要删除“%1”吗？其中的消息和拖入的文件都将被遗忘，且无法撤销。</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/sidebar.py" line="311"/>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/sidebar.py" line="399"/>
        <source>Search failed</source>
        <translation>搜索失败</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/sidebar.py" line="411"/>
        <source>1 result</source>
        <translation>1 条结果</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/sidebar.py" line="411"/>
        <source>%1 results</source>
        <translation>%1 条结果</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/sidebar.py" line="412"/>
        <source>Nothing found</source>
        <translation>没有找到</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/sidebar.py" line="417"/>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/sidebar.py" line="332"/>
        <source>…and %1 more</source>
        <translation>……还有 %1 个</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/sidebar.py" line="335"/>
        <source>Hearth remembers one thing from this chat:</source>
        <translation>Hearth 从这个对话中记住了一件事：</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/sidebar.py" line="336"/>
        <source>Hearth remembers %1 things from this chat:</source>
        <translation>Hearth 从这个对话中记住了 %1 件事：</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/sidebar.py" line="337"/>
        <source>Forget what it taught too</source>
        <translation>同时忘记从中记住的事</translation>
    </message>
</context>
<context>
    <name>SkillsTab</name>
    <message>
        <location filename="../../app/ui/settings/skills.py" line="16"/>
        <source>Time and units</source>
        <translation>时间和单位</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/skills.py" line="17"/>
        <source>Tells the date and time anywhere in the world and converts units.</source>
        <translation>告诉您世界各地的日期和时间，并换算单位。</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/skills.py" line="19"/>
        <source>Documents</source>
        <translation>文档</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/skills.py" line="20"/>
        <source>Searches and reads the documents in your library, citing the page.</source>
        <translation>搜索并阅读您资料库中的文档，并注明页码。</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/skills.py" line="22"/>
        <source>Files</source>
        <translation>文件</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/skills.py" line="23"/>
        <source>Finds files in the folders you chose, and opens or shows them.</source>
        <translation>在您选择的文件夹中查找文件，并打开或显示它们。</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/skills.py" line="25"/>
        <source>Calendar</source>
        <translation>日历</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/skills.py" line="26"/>
        <source>Reads your calendar and finds free time; adds, changes or deletes events once you approve.</source>
        <translation>查看您的日历并查找空闲时间；经您批准后添加、更改或删除日程。</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/skills.py" line="28"/>
        <source>Office</source>
        <translation>办公</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/skills.py" line="29"/>
        <source>Answers exact questions about spreadsheets, summarises folders, and writes Word, Excel and PowerPoint files once you approve.</source>
        <translation>准确回答有关电子表格的问题，汇总文件夹内容，并在您批准后生成 Word、Excel 和 PowerPoint 文件。</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/skills.py" line="48"/>
        <source>What the assistant may use. A skill switched off is not offered to the model from your next message on, so its prompt is shorter and answers start sooner.</source>
        <translation>助手可以使用的技能。关闭的技能从您的下一条消息起不再提供给模型，提示更短，回答也更快开始。</translation>
    </message>
</context>
<context>
    <name>SkipReason</name>
    <message>
        <location filename="../../app/ui/skip_reasons.py" line="25"/>
        <source>damaged or unreadable %1 file</source>
        <translation>%1 文件已损坏或无法读取</translation>
    </message>
    <message>
        <location filename="../../app/ui/skip_reasons.py" line="29"/>
        <source>not a valid %1 file</source>
        <translation>不是有效的 %1 文件</translation>
    </message>
    <message>
        <location filename="../../app/ui/skip_reasons.py" line="19"/>
        <source>unsupported file type %1</source>
        <translation>不支持的文件类型 %1</translation>
    </message>
    <message>
        <location filename="../../app/ui/skip_reasons.py" line="21"/>
        <source>cannot read the file: permission denied</source>
        <translation>无法读取文件：没有权限</translation>
    </message>
    <message>
        <location filename="../../app/ui/skip_reasons.py" line="23"/>
        <source>needed more memory than the parsing limit allows</source>
        <translation>所需内存超出了解析限制</translation>
    </message>
    <message>
        <location filename="../../app/ui/skip_reasons.py" line="26"/>
        <source>no text found in the file (a scanned document needs OCR)</source>
        <translation>文件中没有文字（扫描件需要 OCR）</translation>
    </message>
    <message>
        <location filename="../../app/ui/skip_reasons.py" line="28"/>
        <source>encrypted PDF (it needs a password)</source>
        <translation>加密的 PDF（需要密码）</translation>
    </message>
    <message>
        <location filename="../../app/ui/skip_reasons.py" line="30"/>
        <source>suspicious archive (too many parts)</source>
        <translation>可疑的压缩文件（部件过多）</translation>
    </message>
    <message>
        <location filename="../../app/ui/skip_reasons.py" line="33"/>
        <source>the archive expands beyond the size limit</source>
        <translation>压缩文件解压后超出大小限制</translation>
    </message>
    <message>
        <location filename="../../app/ui/skip_reasons.py" line="35"/>
        <source>binary data, not text</source>
        <translation>二进制数据，不是文本</translation>
    </message>
    <message>
        <location filename="../../app/ui/skip_reasons.py" line="36"/>
        <source>watched folder not found</source>
        <translation>找不到监视的文件夹</translation>
    </message>
    <message>
        <location filename="../../app/ui/skip_reasons.py" line="20"/>
        <source>the file is empty (0 bytes)</source>
        <translation>文件是空的（0 字节）</translation>
    </message>
    <message>
        <location filename="../../app/ui/skip_reasons.py" line="31"/>
        <source>suspicious archive: %1 expands %2 times (a zip bomb?)</source>
        <translation>可疑的压缩文件：%1 解压后膨胀 %2 倍（压缩炸弹？）</translation>
    </message>
    <message>
        <location filename="../../app/ui/skip_reasons.py" line="37"/>
        <source>its name is not valid UTF-8 (rename it to index it)</source>
        <translation>文件名不是有效的 UTF-8 编码（重命名后才能索引）</translation>
    </message>
    <message>
        <location filename="../../app/ui/skip_reasons.py" line="39"/>
        <source>the link leads outside the chosen folder; not followed</source>
        <translation>链接指向所选文件夹之外，未跟随</translation>
    </message>
    <message>
        <location filename="../../app/ui/skip_reasons.py" line="41"/>
        <source>not a regular file</source>
        <translation>不是普通文件</translation>
    </message>
    <message>
        <location filename="../../app/ui/skip_reasons.py" line="42"/>
        <source>too large (%1; the limit is %2)</source>
        <translation>文件太大（%1；上限为 %2）</translation>
    </message>
    <message>
        <location filename="../../app/ui/skip_reasons.py" line="43"/>
        <source>the symbolic link points back at itself</source>
        <translation>符号链接指向了自身（循环）</translation>
    </message>
    <message>
        <location filename="../../app/ui/skip_reasons.py" line="44"/>
        <source>file not found (or a broken link)</source>
        <translation>找不到文件（或链接已失效）</translation>
    </message>
    <message>
        <location filename="../../app/ui/skip_reasons.py" line="45"/>
        <source>cannot read the file: %1</source>
        <translation>无法读取文件：%1</translation>
    </message>
    <message>
        <location filename="../../app/ui/skip_reasons.py" line="46"/>
        <source>reading it took longer than %1 s</source>
        <translation>读取用时超过 %1 秒</translation>
    </message>
    <message>
        <location filename="../../app/ui/skip_reasons.py" line="47"/>
        <source>the reader crashed on this file</source>
        <translation>读取此文件时解析程序崩溃了</translation>
    </message>
    <message>
        <location filename="../../app/ui/skip_reasons.py" line="48"/>
        <source>the reader stopped unexpectedly on this file</source>
        <translation>读取此文件时解析程序意外停止</translation>
    </message>
    <message>
        <location filename="../../app/ui/skip_reasons.py" line="49"/>
        <source>the document reader could not start</source>
        <translation>文档解析程序无法启动</translation>
    </message>
    <message>
        <location filename="../../app/ui/skip_reasons.py" line="50"/>
        <source>the text was read but could not be passed back</source>
        <translation>文字已读取，但无法传回</translation>
    </message>
    <message>
        <location filename="../../app/ui/skip_reasons.py" line="52"/>
        <source>indexing stopped</source>
        <translation>索引已停止</translation>
    </message>
</context>
<context>
    <name>Sources</name>
    <message>
        <location filename="../../app/ui/open_source.py" line="20"/>
        <source>This file is no longer there:</source>
        <translation>此文件已不存在：</translation>
    </message>
</context>
<context>
    <name>SpeedTab</name>
    <message>
        <location filename="../../app/ui/settings/speed.py" line="31"/>
        <source>Check guesses copied from the conversation</source>
        <translation>校验从对话中复制的猜测</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/speed.py" line="34"/>
        <source>When an answer copies what it read (a quote, a file name, a value), the model checks several guessed words in one step: faster, and the same answer. Applies when the model loads.</source>
        <translation>当回答复制它读到的内容（引文、文件名、数值）时，模型一步校验多个猜测的词：更快，回答不变。在加载模型时生效。</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/speed.py" line="37"/>
        <source>Prompt lookup</source>
        <translation>提示查找</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/speed.py" line="29"/>
        <source>Automatic (%1, one per physical core)</source>
        <translation>自动（%1，每个物理核心一个）</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/speed.py" line="27"/>
        <source>Engine threads</source>
        <translation>引擎线程数</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/speed.py" line="30"/>
        <source>Threads</source>
        <translation>线程</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/speed.py" line="39"/>
        <source>Disk limit for saved prompt states</source>
        <translation>已保存提示状态的磁盘上限</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/speed.py" line="41"/>
        <source>Saved prompt states</source>
        <translation>已保存的提示状态</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/speed.py" line="43"/>
        <source>Disk used by saved model states</source>
        <translation>已保存模型状态占用的磁盘空间</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/speed.py" line="44"/>
        <source>Clear</source>
        <translation>清除</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/speed.py" line="44"/>
        <source>Clear saved model states</source>
        <translation>清除已保存的模型状态</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/speed.py" line="45"/>
        <source>On disk now</source>
        <translation>当前磁盘占用</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/speed.py" line="47"/>
        <source>Hearth keeps the model&apos;s reading of its instructions and tools on disk, so a new chat answers at once, even after a restart. The least recently used states go first when the limit is reached.</source>
        <translation>Hearth 会把模型对其指令和工具的读取结果保存在磁盘上，因此新对话即使在重启后也能立即回答。达到上限时，最久未使用的状态会先被删除。</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/speed.py" line="57"/>
        <source>Measuring…</source>
        <translation>正在计算…</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/speed.py" line="62"/>
        <source>%1 MB</source>
        <translation>%1 MB</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/speed.py" line="66"/>
        <source>Clearing…</source>
        <translation>正在清除…</translation>
    </message>
    <message>
        <location filename="../../app/ui/settings/speed.py" line="73"/>
        <source>Could not clear the saved model states</source>
        <translation>无法清除已保存的模型状态</translation>
    </message>
</context>
<context>
    <name>SummaryMarker</name>
    <message>
        <location filename="../../app/ui/chat/message.py" line="218"/>
        <source>Earlier messages summarized</source>
        <translation>较早的消息已总结</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/message.py" line="219"/>
        <source>Show the summary of earlier messages</source>
        <translation>显示较早消息的总结</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/message.py" line="220"/>
        <source>The messages above no longer fit the model&apos;s context; it reads this summary of them instead.</source>
        <translation>上面的消息已超出模型的上下文，模型改为读取它们的这份总结。</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/message.py" line="222"/>
        <source>Summary of earlier messages</source>
        <translation>较早消息的总结</translation>
    </message>
</context>
<context>
    <name>ThinkingSection</name>
    <message>
        <location filename="../../app/ui/chat/message.py" line="185"/>
        <source>Show thinking</source>
        <translation>显示思考过程</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/message.py" line="186"/>
        <source>Thinking</source>
        <translation>思考</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/message.py" line="191"/>
        <source>Thought</source>
        <translation>已思考</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/message.py" line="191"/>
        <source>Thinking…</source>
        <translation>思考中…</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/message.py" line="192"/>
        <source>words</source>
        <translation>词</translation>
    </message>
</context>
<context>
    <name>TodoList</name>
    <message>
        <location filename="../../app/ui/pages/calendar/todo_list.py" line="56"/>
        <location filename="../../app/ui/pages/calendar/todo_list.py" line="60"/>
        <source>To-dos</source>
        <translation>待办事项</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/todo_list.py" line="67"/>
        <source>Show done</source>
        <translation>显示已完成</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/todo_list.py" line="74"/>
        <source>Add a to-do</source>
        <translation>添加待办</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/todo_list.py" line="75"/>
        <source>New to-do</source>
        <translation>新待办</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/todo_list.py" line="80"/>
        <location filename="../../app/ui/pages/calendar/todo_list.py" line="82"/>
        <source>Due</source>
        <translation>到期</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/todo_list.py" line="77"/>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/todo_list.py" line="96"/>
        <source>Could not read your to-dos</source>
        <translation>无法读取你的待办事项</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/todo_list.py" line="124"/>
        <source>due %1</source>
        <translation>%1 到期</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/todo_list.py" line="124"/>
        <source>overdue since %1</source>
        <translation>已逾期，截止于 %1</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/todo_list.py" line="180"/>
        <source>Delete…</source>
        <translation>删除…</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/todo_list.py" line="187"/>
        <source>Delete to-do</source>
        <translation>删除待办</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/todo_list.py" line="187"/>
        <source>Delete “%1”?</source>
        <translation>要删除“%1”吗？</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/todo_list.py" line="188"/>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../../app/ui/pages/calendar/todo_list.py" line="192"/>
        <source>Could not save the to-do</source>
        <translation>无法保存该待办</translation>
    </message>
</context>
<context>
    <name>ToolCard</name>
    <message>
        <location filename="../../app/ui/chat/tool_card.py" line="22"/>
        <source>Searched documents</source>
        <translation>搜索了文档</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/tool_card.py" line="23"/>
        <source>Read a document</source>
        <translation>阅读了文档</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/tool_card.py" line="24"/>
        <source>Searched files</source>
        <translation>搜索了文件</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/tool_card.py" line="25"/>
        <source>Open a file</source>
        <translation>打开文件</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/tool_card.py" line="26"/>
        <source>Show a file</source>
        <translation>显示文件</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/tool_card.py" line="27"/>
        <source>Looked at the calendar</source>
        <translation>查看了日历</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/tool_card.py" line="28"/>
        <source>Found free time</source>
        <translation>查找了空闲时间</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/tool_card.py" line="29"/>
        <source>Add an event</source>
        <translation>添加日程</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/tool_card.py" line="30"/>
        <source>Change an event</source>
        <translation>修改日程</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/tool_card.py" line="31"/>
        <source>Delete an event</source>
        <translation>删除日程</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/tool_card.py" line="32"/>
        <source>Looked at a spreadsheet</source>
        <translation>查看了电子表格</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/tool_card.py" line="33"/>
        <source>Queried a spreadsheet</source>
        <translation>查询了电子表格</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/tool_card.py" line="34"/>
        <source>Summarised a folder</source>
        <translation>汇总了文件夹</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/tool_card.py" line="35"/>
        <source>Convert a spreadsheet</source>
        <translation>转换电子表格</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/tool_card.py" line="36"/>
        <source>Clean a spreadsheet</source>
        <translation>清理电子表格</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/tool_card.py" line="37"/>
        <source>Write a Word report</source>
        <translation>撰写 Word 报告</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/tool_card.py" line="38"/>
        <source>Make slides</source>
        <translation>制作幻灯片</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/tool_card.py" line="44"/>
        <source>title</source>
        <translation>标题</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/tool_card.py" line="45"/>
        <source>text</source>
        <translation>正文</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/tool_card.py" line="46"/>
        <source>search</source>
        <translation>搜索</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/tool_card.py" line="47"/>
        <source>document</source>
        <translation>文档</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/tool_card.py" line="48"/>
        <source>pages</source>
        <translation>页</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/tool_card.py" line="49"/>
        <source>section</source>
        <translation>章节</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/tool_card.py" line="50"/>
        <source>files</source>
        <translation>文件</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/tool_card.py" line="51"/>
        <location filename="../../app/ui/chat/tool_card.py" line="52"/>
        <source>file</source>
        <translation>文件</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/tool_card.py" line="53"/>
        <source>folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/tool_card.py" line="54"/>
        <source>query</source>
        <translation>查询</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/tool_card.py" line="55"/>
        <source>start</source>
        <translation>开始</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/tool_card.py" line="56"/>
        <source>end</source>
        <translation>结束</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/tool_card.py" line="57"/>
        <source>place</source>
        <translation>地点</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/tool_card.py" line="58"/>
        <source>time zone</source>
        <translation>时区</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/tool_card.py" line="59"/>
        <source>at most</source>
        <translation>最多</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/tool_card.py" line="60"/>
        <source>filter</source>
        <translation>筛选</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/tool_card.py" line="61"/>
        <source>slides</source>
        <translation>幻灯片</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/tool_card.py" line="200"/>
        <source>Running…</source>
        <translation>运行中…</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/tool_card.py" line="217"/>
        <source>Tool: %s</source>
        <translation>工具：%s</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/tool_card.py" line="225"/>
        <source>Approve</source>
        <translation>批准</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/tool_card.py" line="227"/>
        <source>Deny</source>
        <translation>拒绝</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/tool_card.py" line="271"/>
        <source>Waiting for you</source>
        <translation>等待你的确认</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/tool_card.py" line="282"/>
        <source>Approved</source>
        <translation>已批准</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/tool_card.py" line="282"/>
        <location filename="../../app/ui/chat/tool_card.py" line="316"/>
        <source>Denied</source>
        <translation>已拒绝</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/tool_card.py" line="296"/>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/tool_card.py" line="315"/>
        <source>Stopped before you decided</source>
        <translation>在你决定之前已停止</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/tool_card.py" line="323"/>
        <source>Done</source>
        <translation>完成</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/tool_card.py" line="323"/>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/tool_card.py" line="347"/>
        <source>Wrote %1 (%2).</source>
        <translation>已写入 %1（%2）。</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/tool_card.py" line="351"/>
        <source>The previous file is kept as %1.</source>
        <translation>原来的文件保留为 %1。</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/tool_card.py" line="234"/>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/tool_card.py" line="235"/>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/tool_card.py" line="293"/>
        <source>Paused — %1 of %2 files</source>
        <translation>已暂停 — 已完成 %1 / %2 个文件</translation>
    </message>
</context>
<context>
    <name>Tray</name>
    <message>
        <location filename="../../app/ui/shell/tray.py" line="37"/>
        <source>Recent reminders</source>
        <translation>最近的提醒</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/tray.py" line="47"/>
        <source>Ask…</source>
        <translation>提问…</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/tray.py" line="48"/>
        <source>Open Hearth</source>
        <translation>打开 Hearth</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/tray.py" line="49"/>
        <source>Pause indexing</source>
        <translation>暂停索引</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/tray.py" line="50"/>
        <source>Quit Hearth</source>
        <translation>退出 Hearth</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/tray.py" line="62"/>
        <source>No reminders yet</source>
        <translation>还没有提醒</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/tray.py" line="100"/>
        <source>Serving other apps at %1</source>
        <translation>正在为其他应用提供服务：%1</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/tray.py" line="95"/>
        <source>Hearth · serving other apps</source>
        <translation>Hearth · 正在为其他应用提供服务</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/tray.py" line="99"/>
        <source>Open to the network at %1</source>
        <translation>已向网络开放：%1</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/tray.py" line="94"/>
        <source>Hearth · open to the network</source>
        <translation>Hearth · 已向网络开放</translation>
    </message>
</context>
<context>
    <name>UserMessage</name>
    <message>
        <location filename="../../app/ui/chat/message.py" line="93"/>
        <source>Your message</source>
        <translation>你的消息</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/message.py" line="92"/>
        <source>Edit</source>
        <translation>编辑</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/message.py" line="92"/>
        <source>Edit this message and resend</source>
        <translation>编辑此消息并重新发送</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/message.py" line="102"/>
        <source>Too long for the model to read at once: kept whole as “%1”, which it searches and reads.</source>
        <translation>太长，模型无法一次读完：已完整保存为“%1”，模型会搜索并阅读它。</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/message.py" line="104"/>
        <source>Too long for the model to read at once: keeping it as a document…</source>
        <translation>太长，模型无法一次读完：正在保存为文档…</translation>
    </message>
</context>
<context>
    <name>WindowsHotkey</name>
    <message>
        <location filename="../../app/ui/shell/hotkey/windows.py" line="51"/>
        <source>Choose a letter, digit, Space or F1–F12.</source>
        <translation>请选择字母、数字、空格或 F1–F12。</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/hotkey/windows.py" line="58"/>
        <source>%1 opens Quick ask from anywhere.</source>
        <translation>在任何地方按 %1 即可打开快速提问。</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/hotkey/windows.py" line="62"/>
        <source>%1 is already used by another app. Choose another combination.</source>
        <translation>%1 已被其他应用占用，请换一个组合键。</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/hotkey/windows.py" line="64"/>
        <source>Windows refused the shortcut (error %1).</source>
        <translation>Windows 拒绝了该快捷键（错误 %1）。</translation>
    </message>
</context>
<context>
    <name>WrittenFileActions</name>
    <message>
        <location filename="../../app/ui/chat/written_file.py" line="31"/>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/written_file.py" line="33"/>
        <source>Show in folder</source>
        <translation>在文件夹中显示</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/written_file.py" line="34"/>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/written_file.py" line="32"/>
        <source>Open %1</source>
        <translation>打开 %1</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/written_file.py" line="62"/>
        <source>Undone: the file is as it was before.</source>
        <translation>已撤销：文件已恢复原样。</translation>
    </message>
    <message>
        <location filename="../../app/ui/chat/written_file.py" line="71"/>
        <source>Could not undo: %1</source>
        <translation>无法撤销：%1</translation>
    </message>
</context>
<context>
    <name>X11Hotkey</name>
    <message>
        <location filename="../../app/ui/shell/hotkey/x11.py" line="80"/>
        <source>Could not connect to the X server.</source>
        <translation>无法连接到 X 服务器。</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/hotkey/x11.py" line="82"/>
        <source>Choose a letter, digit, Space or F1–F12.</source>
        <translation>请选择字母、数字、空格或 F1–F12。</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/hotkey/x11.py" line="98"/>
        <source>%1 is already used by another app. Choose another combination.</source>
        <translation>%1 已被其他应用占用，请换一个组合键。</translation>
    </message>
    <message>
        <location filename="../../app/ui/shell/hotkey/x11.py" line="100"/>
        <source>%1 opens Quick ask from anywhere.</source>
        <translation>在任何地方按 %1 即可打开快速提问。</translation>
    </message>
</context>
</TS>
