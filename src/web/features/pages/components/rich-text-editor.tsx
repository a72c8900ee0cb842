import Image from "@tiptap/extension-image";
import { TableKit } from "@tiptap/extension-table";
import { type Editor, EditorContent, useEditor, useEditorState } from "@tiptap/react";
import StarterKit from "@tiptap/starter-kit";
import {
  Bold,
  Code,
  Heading2,
  Heading3,
  ImagePlus,
  Italic,
  Link2,
  List,
  ListOrdered,
  Redo2,
  Table,
  Undo2,
} from "lucide-react";
import {
  type KeyboardEvent,
  type ReactNode,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from "react";
import { pageImageAltSchema, pageLinkSchema } from "#domain/cms";
import { imageFileProblem } from "#domain/product-admin";
import { Button } from "#web/components/ui/button";
import { Textarea } from "#web/components/ui/form-field";
import { Input } from "#web/components/ui/input";
import { pageProse } from "#web/features/pages/components/page-content";
import { uploadImage } from "#web/features/uploads/api/upload-image";
import { runMutation } from "#web/lib/mutation";
import { cn } from "#web/lib/utils";

/**
 * Elements the visual editor has a node or mark for. Anything else in stored HTML (definition lists,
 * figures, spans…) would be flattened by re-parsing, so such a page opens in HTML source instead.
 */
const EDITABLE_TAGS = new Set(
  "p h2 h3 ul ol li a strong b em i u s code pre blockquote hr br img table thead tbody tfoot tr th td colgroup col".split(
    " ",
  ),
);

function markupTheEditorWouldLose(html: string): string[] {
  if (!html.trim()) return [];
  const parsed = new DOMParser().parseFromString(html, "text/html");
  const tags = new Set<string>();
  for (const element of parsed.body.querySelectorAll("*")) {
    const tag = element.tagName.toLowerCase();
    if (!EDITABLE_TAGS.has(tag)) tags.add(tag);
  }
  return [...tags];
}

const extensions = [
  StarterKit.configure({
    heading: { levels: [2, 3] },
    // Links are edited through the toolbar; a click while editing places the caret. Without autolink a
    // link does not grow as one types after it (Tiptap makes autolinked marks inclusive).
    link: { openOnClick: false, autolink: false, defaultProtocol: "https" },
  }),
  Image.configure({ allowBase64: false }),
  TableKit.configure({ table: { resizable: false } }),
];

/** The editor's document as page HTML; an empty document is no content, so "Content is required" shows. */
const htmlOf = (editor: Editor) => (editor.isEmpty ? "" : editor.getHTML());

export type RichTextHandle = { focus: () => void };

/**
 * The page body: a Tiptap editor with a toolbar, or the same content as HTML source. The HTML it
 * produces is a draft; the server sanitises it on every save, so nothing here is a security boundary.
 */
export default function RichTextEditor({
  value,
  onChange,
  onBlur,
  error,
  hint,
  handle,
}: {
  value: string;
  onChange: (html: string) => void;
  onBlur: () => void;
  error?: string;
  hint: string;
  handle: (instance: RichTextHandle | null) => void;
}) {
  const id = useId();
  const [lost] = useState(() => markupTheEditorWouldLose(value));
  const [mode, setMode] = useState<"visual" | "source">(lost.length > 0 ? "source" : "visual");
  const [panel, setPanel] = useState<"link" | "image" | null>(null);
  const sourceRef = useRef<HTMLTextAreaElement>(null);
  const describedBy = error ? `${id}-error` : `${id}-hint`;

  const editor = useEditor({
    extensions,
    content: value,
    editorProps: {
      attributes: {
        role: "textbox",
        "aria-multiline": "true",
        "aria-label": "Content",
        "aria-describedby": describedBy,
        ...(error ? { "aria-invalid": "true" } : {}),
        class: cn(
          pageProse,
          "min-h-72 rounded-b-md px-4 py-3 focus-visible:outline-2 focus-visible:outline-ring",
          "[&_.selectedCell]:bg-primary/15 [&_img.ProseMirror-selectednode]:outline-2 [&_img.ProseMirror-selectednode]:outline-ring",
        ),
      },
    },
    onUpdate: ({ editor }) => onChange(htmlOf(editor)),
    onBlur,
  });

  useLayoutEffect(() => {
    handle({ focus: () => (mode === "source" ? sourceRef.current?.focus() : editor.commands.focus()) });
  }, [handle, mode, editor]);

  const toggleSource = () => {
    setPanel(null);
    if (mode === "visual") {
      onChange(htmlOf(editor));
      setMode("source");
      return;
    }
    // Re-parse what was typed: the editor keeps what it can represent, and the form gets that back.
    editor.commands.setContent(value, { emitUpdate: false });
    onChange(htmlOf(editor));
    setMode("visual");
  };

  return (
    <div className="flex flex-col gap-1.5">
      <div
        className={cn(
          "rounded-md border border-input bg-card shadow-sm",
          error && "border-destructive ring-1 ring-destructive",
        )}
      >
        <Toolbar
          editor={editor}
          source={mode === "source"}
          panel={panel}
          onPanel={setPanel}
          onToggleSource={toggleSource}
        />
        {panel === "link" && mode === "visual" && (
          <LinkPanel editor={editor} onClose={() => setPanel(null)} />
        )}
        {panel === "image" && mode === "visual" && (
          <ImagePanel editor={editor} onClose={() => setPanel(null)} />
        )}
        {lost.length > 0 && mode === "source" && (
          <p className="border-b border-border bg-muted/50 px-4 py-2 text-xs text-muted-foreground">
            This page uses markup the visual editor would simplify ({lost.join(", ")}), so it opens as HTML.
            Switching to the visual editor converts it.
          </p>
        )}
        <div hidden={mode !== "visual"}>
          <EditorContent editor={editor} />
        </div>
        {mode === "source" && (
          <>
            <label htmlFor={`${id}-source`} className="sr-only">
              Content (HTML)
            </label>
            <Textarea
              ref={sourceRef}
              id={`${id}-source`}
              value={value}
              onChange={(event) => onChange(event.target.value)}
              onBlur={onBlur}
              aria-invalid={Boolean(error)}
              aria-describedby={describedBy}
              rows={18}
              spellCheck={false}
              className="rounded-t-none border-0 font-mono text-xs leading-relaxed shadow-none"
            />
          </>
        )}
      </div>
      {error ? (
        <p id={`${id}-error`} className="text-sm text-destructive">
          {error}
        </p>
      ) : (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
    </div>
  );
}

/**
 * One tab stop for the whole toolbar (the ARIA toolbar pattern): arrow keys, Home and End move between
 * its buttons, so the content is a Tab away rather than twenty.
 */
function useRovingFocus() {
  const ref = useRef<HTMLDivElement>(null);
  const current = useRef(0);
  const buttons = () => [
    ...(ref.current?.querySelectorAll<HTMLButtonElement>("button:not(:disabled)") ?? []),
  ];
  const settle = () => {
    const all = buttons();
    if (all.length === 0) return;
    current.current = Math.min(current.current, all.length - 1);
    all.forEach((button, index) => {
      button.tabIndex = index === current.current ? 0 : -1;
    });
  };
  // Buttons appear (table tools) and are disabled (source mode) as the selection moves.
  useEffect(settle);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const all = buttons();
    const at = all.indexOf(document.activeElement as HTMLButtonElement);
    if (at < 0) return;
    const next = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: all.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    current.current = (next + all.length) % all.length;
    settle();
    all[current.current]?.focus();
  };
  const onFocus = () => {
    const at = buttons().indexOf(document.activeElement as HTMLButtonElement);
    if (at >= 0) {
      current.current = at;
      settle();
    }
  };
  return { ref, onKeyDown, onFocus };
}

function Toolbar({
  editor,
  source,
  panel,
  onPanel,
  onToggleSource,
}: {
  editor: Editor;
  source: boolean;
  panel: "link" | "image" | null;
  onPanel: (panel: "link" | "image" | null) => void;
  onToggleSource: () => void;
}) {
  const roving = useRovingFocus();
  const state = useEditorState({
    editor,
    selector: ({ editor }) => ({
      h2: editor.isActive("heading", { level: 2 }),
      h3: editor.isActive("heading", { level: 3 }),
      bold: editor.isActive("bold"),
      italic: editor.isActive("italic"),
      bullets: editor.isActive("bulletList"),
      numbers: editor.isActive("orderedList"),
      link: editor.isActive("link"),
      inTable: editor.isActive("table"),
      canUndo: editor.can().undo(),
      canRedo: editor.can().redo(),
    }),
  });
  const run = (command: (chain: ReturnType<Editor["chain"]>) => ReturnType<Editor["chain"]>) =>
    command(editor.chain().focus()).run();

  return (
    <div
      role="toolbar"
      aria-label="Formatting"
      ref={roving.ref}
      onKeyDown={roving.onKeyDown}
      onFocus={roving.onFocus}
      className="flex flex-wrap items-center gap-0.5 border-b border-border p-1"
    >
      <Tool
        label="Heading 2"
        pressed={state.h2}
        disabled={source}
        onClick={() => run((c) => c.toggleHeading({ level: 2 }))}
      >
        <Heading2 />
      </Tool>
      <Tool
        label="Heading 3"
        pressed={state.h3}
        disabled={source}
        onClick={() => run((c) => c.toggleHeading({ level: 3 }))}
      >
        <Heading3 />
      </Tool>
      <Tool label="Bold" pressed={state.bold} disabled={source} onClick={() => run((c) => c.toggleBold())}>
        <Bold />
      </Tool>
      <Tool
        label="Italic"
        pressed={state.italic}
        disabled={source}
        onClick={() => run((c) => c.toggleItalic())}
      >
        <Italic />
      </Tool>
      <Tool
        label="Bulleted list"
        pressed={state.bullets}
        disabled={source}
        onClick={() => run((c) => c.toggleBulletList())}
      >
        <List />
      </Tool>
      <Tool
        label="Numbered list"
        pressed={state.numbers}
        disabled={source}
        onClick={() => run((c) => c.toggleOrderedList())}
      >
        <ListOrdered />
      </Tool>
      <Tool
        label="Link"
        pressed={state.link}
        expanded={panel === "link"}
        disabled={source}
        onClick={() => onPanel(panel === "link" ? null : "link")}
      >
        <Link2 />
      </Tool>
      <Tool
        label="Image"
        expanded={panel === "image"}
        disabled={source}
        onClick={() => onPanel(panel === "image" ? null : "image")}
      >
        <ImagePlus />
      </Tool>
      <Tool
        label="Insert table"
        disabled={source || state.inTable}
        onClick={() => run((c) => c.insertTable({ rows: 3, cols: 3, withHeaderRow: true }))}
      >
        <Table />
      </Tool>
      {state.inTable && !source && (
        <span className="contents">
          <TextTool label="Add row" onClick={() => run((c) => c.addRowAfter())}>
            + Row
          </TextTool>
          <TextTool label="Delete row" onClick={() => run((c) => c.deleteRow())}>
            − Row
          </TextTool>
          <TextTool label="Add column" onClick={() => run((c) => c.addColumnAfter())}>
            + Column
          </TextTool>
          <TextTool label="Delete column" onClick={() => run((c) => c.deleteColumn())}>
            − Column
          </TextTool>
          <TextTool label="Delete table" onClick={() => run((c) => c.deleteTable())}>
            Delete table
          </TextTool>
        </span>
      )}
      <Tool label="Undo" disabled={source || !state.canUndo} onClick={() => run((c) => c.undo())}>
        <Undo2 />
      </Tool>
      <Tool label="Redo" disabled={source || !state.canRedo} onClick={() => run((c) => c.redo())}>
        <Redo2 />
      </Tool>
      <Button
        type="button"
        variant="ghost"
        size="sm"
        aria-pressed={source}
        onClick={onToggleSource}
        className={cn("ml-auto", source && "bg-accent text-accent-foreground")}
      >
        <Code aria-hidden /> HTML source
      </Button>
    </div>
  );
}

function Tool({
  label,
  pressed,
  expanded,
  disabled,
  onClick,
  children,
}: {
  label: string;
  pressed?: boolean;
  expanded?: boolean;
  disabled?: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <Button
      type="button"
      variant="ghost"
      size="icon"
      title={label}
      aria-label={label}
      aria-pressed={pressed}
      aria-expanded={expanded}
      disabled={disabled}
      onClick={onClick}
      className={cn("size-9", (pressed || expanded) && "bg-accent text-accent-foreground")}
    >
      {children}
    </Button>
  );
}

function TextTool({ label, onClick, children }: { label: string; onClick: () => void; children: ReactNode }) {
  return (
    <Button type="button" variant="ghost" size="sm" aria-label={label} onClick={onClick}>
      {children}
    </Button>
  );
}

/** A small form inside the page form (forms cannot nest): Enter applies, Escape closes. */
function Panel({
  title,
  onApply,
  onClose,
  children,
  actions,
}: {
  title: string;
  onApply: () => void;
  onClose: () => void;
  children: ReactNode;
  actions: ReactNode;
}) {
  const onKeyDown = (event: KeyboardEvent<HTMLFieldSetElement>) => {
    if (event.key === "Escape") {
      event.preventDefault();
      onClose();
    } else if (
      event.key === "Enter" &&
      event.target instanceof HTMLInputElement &&
      event.target.type !== "file"
    ) {
      // Enter in a field would submit the whole page form.
      event.preventDefault();
      onApply();
    }
  };
  return (
    // The keys act on the fields inside the group.
    <fieldset onKeyDown={onKeyDown} className="grid min-w-0 gap-3 border-b border-border bg-muted/40 p-3">
      <legend className="sr-only">{title}</legend>
      {children}
      <div className="flex flex-wrap gap-2">{actions}</div>
    </fieldset>
  );
}

function LinkPanel({ editor, onClose }: { editor: Editor; onClose: () => void }) {
  const id = useId();
  const existing = (editor.getAttributes("link").href as string | undefined) ?? "";
  const [url, setUrl] = useState(existing);
  const [problem, setProblem] = useState<string>();
  const close = () => {
    onClose();
    editor.commands.focus();
  };
  const apply = () => {
    const parsed = pageLinkSchema.safeParse(url);
    if (!parsed.success) {
      setProblem(parsed.error.issues[0]?.message);
      return;
    }
    const href = parsed.data;
    const chain = editor.chain().focus();
    if (editor.state.selection.empty && !editor.isActive("link")) {
      // Nothing selected: the address itself becomes the linked text.
      chain.insertContent({ type: "text", text: href, marks: [{ type: "link", attrs: { href } }] }).run();
    } else {
      // The caret goes after the link, so what is typed next is plain text again.
      chain
        .extendMarkRange("link")
        .setLink({ href })
        .command(({ tr, commands }) => commands.setTextSelection(tr.selection.to))
        .run();
    }
    onClose();
  };
  return (
    <Panel
      title="Link"
      onApply={apply}
      onClose={close}
      actions={
        <>
          <Button type="button" size="sm" onClick={apply}>
            Apply link
          </Button>
          {existing && (
            <Button
              type="button"
              size="sm"
              variant="outline"
              onClick={() => {
                editor.chain().focus().extendMarkRange("link").unsetLink().run();
                onClose();
              }}
            >
              Remove link
            </Button>
          )}
          <Button type="button" size="sm" variant="ghost" onClick={close}>
            Cancel
          </Button>
        </>
      }
    >
      <div className="flex flex-col gap-1.5">
        <label htmlFor={`${id}-url`} className="text-sm font-medium">
          Link address
        </label>
        <Input
          id={`${id}-url`}
          type="url"
          inputMode="url"
          placeholder="https://"
          value={url}
          autoFocus
          onChange={(event) => {
            setUrl(event.target.value);
            setProblem(undefined);
          }}
          aria-invalid={Boolean(problem)}
          aria-describedby={`${id}-problem`}
        />
        <p
          id={`${id}-problem`}
          className={cn("text-xs", problem ? "text-sm text-destructive" : "text-muted-foreground")}
        >
          {problem ?? "A web address (https:// or http://) or an e-mail address (mailto:)."}
        </p>
      </div>
    </Panel>
  );
}

function ImagePanel({ editor, onClose }: { editor: Editor; onClose: () => void }) {
  const id = useId();
  const [file, setFile] = useState<File>();
  const [alt, setAlt] = useState("");
  const [problems, setProblems] = useState<{ file?: string; alt?: string; upload?: string }>({});
  const [uploading, setUploading] = useState(false);
  const close = () => {
    onClose();
    editor.commands.focus();
  };
  const apply = async () => {
    const altText = pageImageAltSchema.safeParse(alt);
    const fileProblem = file ? imageFileProblem(file) : "Choose an image to upload";
    if (fileProblem || !altText.success || !file) {
      setProblems({ file: fileProblem ?? undefined, alt: altText.error?.issues[0]?.message });
      return;
    }
    setUploading(true);
    // The same upload as product pictures: the server checks the bytes and stores a re-encoded WebP.
    const result = await runMutation(uploadImage(file), {
      error: { title: "The image could not be uploaded", description: "Please try again." },
      // What the server found wrong with the file is said in the dialog, beside the file.
      on: (error) => {
        setProblems({ upload: error.message });
        return null;
      },
    });
    setUploading(false);
    if (!result.ok) return;
    const image = result.data;
    editor
      .chain()
      .focus()
      // Its size reserves the space before the picture loads; the page's styles scale it down.
      .setImage({ src: image.url, alt: altText.data, width: image.width, height: image.height })
      .run();
    onClose();
  };
  return (
    <Panel
      title="Image"
      onApply={apply}
      onClose={close}
      actions={
        <>
          <Button type="button" size="sm" onClick={apply} disabled={uploading}>
            {uploading ? "Uploading..." : "Insert image"}
          </Button>
          <Button type="button" size="sm" variant="ghost" onClick={close}>
            Cancel
          </Button>
        </>
      }
    >
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="flex min-w-0 flex-col gap-1.5">
          <label htmlFor={`${id}-file`} className="text-sm font-medium">
            Image file
          </label>
          <Input
            id={`${id}-file`}
            type="file"
            accept="image/jpeg,image/png,image/webp,image/gif,image/avif"
            autoFocus
            onChange={(event) => {
              setFile(event.target.files?.[0]);
              setProblems({});
            }}
            aria-invalid={Boolean(problems.file)}
            aria-describedby={`${id}-file-problem`}
            className="h-auto py-1.5"
          />
          <p
            id={`${id}-file-problem`}
            className={problems.file ? "text-sm text-destructive" : "text-xs text-muted-foreground"}
          >
            {problems.file ?? "JPEG, PNG, WebP, GIF or AVIF, under 5 MB."}
          </p>
        </div>
        <div className="flex min-w-0 flex-col gap-1.5">
          <label htmlFor={`${id}-alt`} className="text-sm font-medium">
            Alt text
          </label>
          <Input
            id={`${id}-alt`}
            value={alt}
            maxLength={300}
            onChange={(event) => {
              setAlt(event.target.value);
              setProblems({});
            }}
            aria-invalid={Boolean(problems.alt)}
            aria-describedby={`${id}-alt-problem`}
          />
          <p
            id={`${id}-alt-problem`}
            className={problems.alt ? "text-sm text-destructive" : "text-xs text-muted-foreground"}
          >
            {problems.alt ?? "What the picture shows, for readers who cannot see it."}
          </p>
        </div>
      </div>
      {problems.upload && (
        <p role="alert" className="text-sm text-destructive">
          {problems.upload}
        </p>
      )}
    </Panel>
  );
}
