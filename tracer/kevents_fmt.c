// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace's generic events: what the kernel says about its events, read
 * from its own tracefs, and the text of their records.
 *
 * No exported interface lists the kernel's events or their fields
 * (ftrace_events and struct ftrace_event_field are private to
 * kernel/trace/), but tracefs prints both: available_events, and a format
 * file per event with its id, fields and print fmt. rbtrace reads them
 * through a mount of its own (kern_mount()): tracefs has one superblock,
 * so this is the tree user space sees, wherever, or whether, it is
 * mounted. The format text is kept verbatim for rbtrace's own format file
 * (byte for byte the kernel's, ID line and all), and parsed into struct
 * rbtr_field for the "name=value" text of the trace files, the record
 * length, and nothing else: the record itself is the kernel's.
 *
 * tracefs's files are seq_files read with seq_read(), which kernel_read()
 * refuses (it wants read_iter); seq_read() is a wrapper of
 * seq_read_iter(), which is exported and reads into a kernel buffer.
 */
#include <linux/ctype.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/sizes.h>
#include <linux/mount.h>
#include <linux/seq_buf.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/uio.h>
#include "kevents.h"

/* The mount, from rbtr_kevents_load() to rbtr_kevents_exit(); or NULL. */
static struct vfsmount *rbtr_kfs_mnt;

/**
 * rbtr_kfs_mount - a mount of the kernel's tracefs, for rbtrace alone
 *
 * tracefs is built in: its file_system_type has no module to put. The
 * mount is kept for rbtr_kfs() until rbtr_kfs_umount().
 *
 * Return: the mount, or an ERR_PTR().
 */
struct vfsmount *rbtr_kfs_mount(void)
{
	struct file_system_type *fs = get_fs_type("tracefs");
	struct vfsmount *mnt;

	if (!fs)
		return ERR_PTR(-ENODEV);
	mnt = kern_mount(fs);
	rbtr_kfs_mnt = IS_ERR(mnt) ? NULL : mnt;
	return mnt;
}

/**
 * rbtr_kfs - the mount of rbtr_kfs_mount(), for the rest of the tracer
 *
 * Valid from rbtr_tracepoints_init() to rbtr_tracepoints_exit(), which
 * the function tracer's life is inside of (the filter files read the
 * kernel's available_filter_functions through it).
 *
 * Return: the mount, or an ERR_PTR() if the kernel has no tracefs.
 */
struct vfsmount *rbtr_kfs(void)
{
	return rbtr_kfs_mnt ?: ERR_PTR(-ENODEV);
}

/**
 * rbtr_kfs_umount - drop the mount of rbtr_kfs_mount()
 * @mnt: the mount
 */
void rbtr_kfs_umount(struct vfsmount *mnt)
{
	kern_unmount(mnt);
	rbtr_kfs_mnt = NULL;
}

/* Read @f from its start into @buf (@cap bytes). Return: bytes or -errno. */
static ssize_t rbtr_kfs_read_file(struct file *f, char *buf, size_t cap)
{
	struct kvec kv = { .iov_base = buf, .iov_len = cap };
	struct iov_iter it;
	struct kiocb kiocb;
	ssize_t n, done = 0;

	if (f->f_op->read != seq_read) {
		loff_t pos = 0;

		return kernel_read(f, buf, cap, &pos);
	}
	init_sync_kiocb(&kiocb, f);
	iov_iter_kvec(&it, ITER_DEST, &kv, 1, cap);
	/* seq_read_iter() stops at its buffer's end: read to the end of file. */
	do {
		n = seq_read_iter(&kiocb, &it);
		if (n < 0)
			return n;
		done += n;
	} while (n && done < cap);
	return done;
}

/**
 * rbtr_kfs_read - the whole text of a tracefs file
 * @mnt: from rbtr_kfs_mount()
 * @path: relative to tracefs's root
 * @buf: a kvmalloc()ed buffer, or NULL; grown as needed; the caller frees it
 * @cap: its size
 *
 * Return: the length of the text (NUL-terminated in *@buf), or -errno.
 */
ssize_t rbtr_kfs_read(struct vfsmount *mnt, const char *path, char **buf, size_t *cap)
{
	struct file *f;
	ssize_t n;

	f = file_open_root_mnt(mnt, path, O_RDONLY, 0);
	if (IS_ERR(f))
		return PTR_ERR(f);
	for (;;) {
		if (!*buf) {
			*cap = max_t(size_t, *cap, PAGE_SIZE);
			*buf = kvmalloc(*cap, GFP_KERNEL);
			if (!*buf) {
				n = -ENOMEM;
				break;
			}
		}
		n = rbtr_kfs_read_file(f, *buf, *cap - 1);
		if (n < 0 || n < *cap - 1)
			break;
		/* Filled: read again into twice the room (a file can only grow so far). */
		if (*cap >= SZ_16M) {
			n = -EFBIG;
			break;
		}
		kvfree(*buf);
		*buf = NULL;
		*cap *= 2;
		vfs_llseek(f, 0, SEEK_SET);
	}
	fput(f);
	if (n >= 0)
		(*buf)[n] = '\0';
	return n;
}

/* ---- parsing a format file ----------------------------------------------- */

/* One "\tfield:TYPE NAME;\toffset:N;\tsize:N;\tsigned:N;" line. */
struct rbtr_kev_line {
	const char	*decl;
	unsigned int	decl_len;
	unsigned int	offset, size, is_signed;
};

static bool rbtr_kev_scan(const char *line, struct rbtr_kev_line *l)
{
	const char *semi;

	if (!str_has_prefix(line, "\tfield:"))
		return false;
	l->decl = line + 7;
	semi = strchr(l->decl, ';');
	if (!semi)
		return false;
	l->decl_len = semi - l->decl;
	return sscanf(semi, ";\toffset:%u;\tsize:%u;\tsigned:%u;", &l->offset, &l->size,
		      &l->is_signed) == 3;
}

/* The kind of a field, from its type and name as ftrace's filter_assign_type(). */
static enum rbtr_field_kind rbtr_kev_kind(const char *type, const char *name)
{
	bool chr = strstr(type, "char");

	if (str_has_prefix(type, "__data_loc"))
		return chr ? RBTR_FIELD_K_DYNSTR : RBTR_FIELD_K_DYNARR;
	if (str_has_prefix(type, "__rel_loc"))
		return chr ? RBTR_FIELD_K_RELSTR : RBTR_FIELD_K_RELARR;
	if (strchr(name, '['))
		return chr ? RBTR_FIELD_K_STR : RBTR_FIELD_K_ARRAY;
	if (!strcmp(type, "char *") || !strcmp(type, "const char *"))
		return RBTR_FIELD_K_PTRSTR;
	return RBTR_FIELD_K_INT;
}

/* The C alignment of a field (x86-64, as the compiler laid out the record). */
static unsigned int rbtr_kev_align(const struct rbtr_field *f)
{
	const char *br = strchr(f->name, '[');
	unsigned int elem = f->size, n;

	if (f->kind >= RBTR_FIELD_K_DYNSTR && f->kind <= RBTR_FIELD_K_RELARR)
		return 4;
	if (br && sscanf(br, "[%u]", &n) == 1 && n)
		elem = f->size / n;
	if (elem >= 8)
		return 8;
	return elem == 4 || elem == 2 ? elem : 1;
}

/*
 * The fields after the common ones, into one allocation: the array, then
 * their type and name strings. Pass 1 (!kev->fields) counts, pass 2 fills.
 */
static int rbtr_kev_fields(struct rbtr_kevent *kev, const char *text, size_t *strbytes)
{
	struct rbtr_field *f = kev->fields;
	char *str = f ? (char *)(f + kev->type.nr_fields) : NULL;
	const char *line, *sp;
	struct rbtr_kev_line l;
	unsigned int n = 0;

	for (line = text; line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		/* The common fields: struct rbtr_entry. */
		if (!rbtr_kev_scan(line, &l) || strnstr(l.decl, " common_", l.decl_len))
			continue;
		n++;
		if (!f) {
			*strbytes += l.decl_len + 1;
			continue;
		}
		/* "TYPE NAME": the name is after the last space. */
		sp = l.decl + l.decl_len;
		while (sp > l.decl && sp[-1] != ' ')
			sp--;
		if (sp == l.decl)
			return -EINVAL;
		memcpy(str, l.decl, l.decl_len);
		str[sp - l.decl - 1] = '\0';
		str[l.decl_len] = '\0';
		f->type = str;
		f->name = str + (sp - l.decl);
		str += l.decl_len + 1;
		f->offset = l.offset;
		f->size = l.size;
		f->is_signed = l.is_signed;
		f->kind = rbtr_kev_kind(f->type, f->name);
		f++;
	}
	kev->type.nr_fields = n;
	return 0;
}

/* fixed_size and locs[] from the fields. */
static int rbtr_kev_layout(struct rbtr_kevent *kev)
{
	unsigned int i, end = sizeof(struct rbtr_entry), align = 4;
	const struct rbtr_field *f;

	for (i = 0; i < kev->type.nr_fields; i++) {
		f = &kev->fields[i];
		end = max_t(unsigned int, end, f->offset + f->size);
		align = max(align, rbtr_kev_align(f));
		if (f->kind < RBTR_FIELD_K_DYNSTR || f->kind > RBTR_FIELD_K_RELARR)
			continue;
		if (kev->nr_locs == RBTR_KEV_MAX_LOCS || f->size != 4)
			return -EINVAL;
		kev->locs[kev->nr_locs++] = f->offset |
			(f->kind == RBTR_FIELD_K_RELSTR || f->kind == RBTR_FIELD_K_RELARR ?
			 RBTR_KEV_LOC_REL : 0);
	}
	if (end > U16_MAX / 2)
		return -EINVAL;
	kev->fixed_size = ALIGN(end, align);
	return 0;
}

static void rbtr_kev_print(struct seq_buf *s, const struct rbtr_event_type *type,
			   const void *rec, unsigned int len);
static void rbtr_kev_print_fields(struct seq_buf *s, const struct rbtr_event_type *type,
				  const void *rec, unsigned int len);
static void rbtr_kev_fix_ptrs(void *rec, unsigned int len, rbtr_fix_ip_fn fix);

/**
 * rbtr_kev_parse - a generic event from the kernel's format file
 * @system: its system (copied)
 * @name: its name (copied)
 * @text: the format file's text
 * @len: its length
 *
 * Return: the event, not registered, or an ERR_PTR().
 */
struct rbtr_kevent *rbtr_kev_parse(const char *system, const char *name, const char *text,
				   size_t len)
{
	struct rbtr_kevent *kev;
	size_t strbytes = 0;
	unsigned int id, i;
	const char *p;
	char *sn;
	int ret;

	p = strstr(text, "\nID: ");
	if (!p || sscanf(p, "\nID: %u\n", &id) != 1 || !id || id >= RBTR_EVENT_MAX_ID)
		return ERR_PTR(-EINVAL);
	kev = kzalloc(sizeof(*kev) + strlen(system) + strlen(name) + 2, GFP_KERNEL);
	if (!kev)
		return ERR_PTR(-ENOMEM);
	sn = (char *)(kev + 1);
	memcpy(sn, system, strlen(system) + 1);
	kev->type.system = sn;
	sn += strlen(system) + 1;
	memcpy(sn, name, strlen(name) + 1);
	kev->type.name = sn;
	kev->type.id = id;
	kev->type.print = rbtr_kev_print;
	kev->type.print_fields = rbtr_kev_print_fields;
	INIT_LIST_HEAD(&kev->on);
	ret = -ENOMEM;
	kev->text = kmemdup_nul(text, len, GFP_KERNEL);
	if (!kev->text)
		goto fail;
	kev->type.format = kev->text;
	p = strstr(kev->text, "\nprint fmt: ");
	kev->type.print_fmt = p ? p + 12 : "";
	rbtr_kev_fields(kev, kev->text, &strbytes);
	kev->fields = kmalloc(kev->type.nr_fields * sizeof(*kev->fields) + strbytes, GFP_KERNEL);
	if (!kev->fields)
		goto fail;
	ret = rbtr_kev_fields(kev, kev->text, NULL);
	if (!ret)
		ret = rbtr_kev_layout(kev);
	if (ret)
		goto fail;
	kev->type.fields = kev->fields;
	for (i = 0; i < kev->type.nr_fields; i++)
		if (kev->fields[i].kind == RBTR_FIELD_K_PTRSTR)
			kev->type.fix_addrs = rbtr_kev_fix_ptrs;
	return kev;
fail:
	rbtr_kev_free(kev);
	return ERR_PTR(ret);
}

/**
 * rbtr_kev_free - free an event of rbtr_kev_parse(), not registered
 * @kev: the event
 */
void rbtr_kev_free(struct rbtr_kevent *kev)
{
	kfree(kev->fields);
	kfree(kev->text);
	kfree(kev);
}

/**
 * rbtr_kev_reformat - describe an event by another format text
 * @kev: the event, from rbtr_kev_parse(), not registered
 * @text: the new text, of the same name and ID (copied)
 *
 * For a route whose records are not the kernel's (kevents_sysuser.c):
 * the format file, the fields and the layout become the new text's; the
 * printers stay.
 *
 * Return: 0, or a negative errno (@kev unchanged).
 */
int rbtr_kev_reformat(struct rbtr_kevent *kev, const char *text)
{
	struct rbtr_kevent *n = rbtr_kev_parse(kev->type.system, kev->type.name, text,
					       strlen(text));

	if (IS_ERR(n))
		return PTR_ERR(n);
	if (n->type.id != kev->type.id) {
		rbtr_kev_free(n);
		return -EINVAL;
	}
	swap(kev->text, n->text);
	swap(kev->fields, n->fields);
	kev->type.format = kev->text;
	kev->type.print_fmt = n->type.print_fmt;
	kev->type.fields = kev->fields;
	kev->type.nr_fields = n->type.nr_fields;
	kev->type.fix_addrs = n->type.fix_addrs;
	kev->fixed_size = n->fixed_size;
	kev->nr_locs = n->nr_locs;
	memcpy(kev->locs, n->locs, sizeof(kev->locs));
	rbtr_kev_free(n);
	return 0;
}

/**
 * rbtr_kev_len - the length of a record, as ftrace writes it
 * @kev: its event
 * @rec: the record the kernel filled
 * @raw: its size as perf gives it
 *
 * perf hands over ALIGN(size + 4, 8) - 4 bytes (its raw sample starts with
 * a u32 size and must end u64 aligned), the bytes after the record zeroed
 * (perf_trace_buf_alloc()). rbtrace writes what ftrace writes instead: the
 * fixed part, tail padding included, then the dynamic data, which follow
 * it back to back, so that a record is the same size in both buffers and
 * no dead bytes are kept: the end of the last __data_loc item, or the
 * fixed part. Never more than perf gave.
 *
 * Return: the length.
 */
unsigned int rbtr_kev_len(const struct rbtr_kevent *kev, const void *rec, unsigned int raw)
{
	unsigned int i, len = kev->fixed_size, end, off;
	u32 loc;

	for (i = 0; i < kev->nr_locs; i++) {
		off = kev->locs[i] & ~RBTR_KEV_LOC_REL;
		memcpy(&loc, rec + off, sizeof(loc));
		end = (loc & 0xffff) + (loc >> 16);
		if (kev->locs[i] & RBTR_KEV_LOC_REL)
			end += off + sizeof(loc);
		len = max(len, end);
	}
	return min(len, raw);
}

/* ---- text -------------------------------------------------------------------- */

/* An integer of the record, as ftrace's print_fields() shows it. */
static void rbtr_kev_print_int(struct seq_buf *s, const void *p, unsigned int size)
{
	union { u8 b; u16 h; u32 w; u64 d; } v = { .d = 0 };

	memcpy(&v, p, min_t(unsigned int, size, sizeof(v)));
	switch (size) {
	case 1:
		if (isprint(v.b))
			seq_buf_printf(s, "'%c'", v.b);
		seq_buf_printf(s, "(%d)", v.b);
		break;
	case 2:
		seq_buf_printf(s, "0x%x (%d)", v.h, v.h);
		break;
	case 4:
		seq_buf_printf(s, "0x%x (%d)", v.w, (int)v.w);
		break;
	case 8:
		seq_buf_printf(s, "0x%llx (%lld)", v.d, (long long)v.d);
		break;
	default:
		seq_buf_printf(s, "<INVALID-SIZE>");
	}
}

/*
 * A fixed array of integers (ftrace prints <INVALID-SIZE>): its elements
 * in hex, "[0x1,0x2]", the element size from the name's "[N]".
 */
static void rbtr_kev_print_array(struct seq_buf *s, const struct rbtr_field *f, const void *p)
{
	const char *br = strchr(f->name, '[');
	unsigned int n = 0, elem, i;
	u64 v;

	if (!br || sscanf(br, "[%u]", &n) != 1 || !n || f->size % n)
		n = f->size;
	elem = f->size / n;
	if (elem != 1 && elem != 2 && elem != 4 && elem != 8) {
		elem = 1;
		n = f->size;
	}
	seq_buf_printf(s, "[");
	for (i = 0; i < n; i++) {
		v = 0;
		memcpy(&v, p + i * elem, elem);
		seq_buf_printf(s, "%s0x%llx", i ? "," : "", v);
	}
	seq_buf_printf(s, "]");
}

/* A __data_loc/__rel_loc field: its data as a string or hex bytes. */
static void rbtr_kev_print_loc(struct seq_buf *s, const struct rbtr_field *f,
			       const void *rec, unsigned int len)
{
	unsigned int off, n, i;
	u32 loc;

	memcpy(&loc, rec + f->offset, sizeof(loc));
	off = loc & 0xffff;
	n = loc >> 16;
	if (f->kind == RBTR_FIELD_K_RELSTR || f->kind == RBTR_FIELD_K_RELARR)
		off += f->offset + sizeof(loc);
	if (off + n > len) {
		seq_buf_printf(s, "<OVERFLOW>");
		return;
	}
	if (f->kind == RBTR_FIELD_K_DYNSTR || f->kind == RBTR_FIELD_K_RELSTR) {
		seq_buf_printf(s, "%.*s", (int)strnlen(rec + off, n), (const char *)rec + off);
		return;
	}
	for (i = 0; i < n; i++)
		seq_buf_printf(s, "%s%02x", i ? "," : "", ((const u8 *)rec)[off + i]);
}

/*
 * &struct rbtr_event_type.fix_addrs of the events with const char *
 * fields: mark each (in a copy of a previous boot's record, whose id is
 * this boot's already). Under rcu_read_lock(), as the type is found.
 */
static void rbtr_kev_fix_ptrs(void *rec, unsigned int len, rbtr_fix_ip_fn fix)
{
	const struct rbtr_entry *ent = rec;
	const struct rbtr_event_type *type = rbtr_event_find(ent->type);
	const struct rbtr_field *f;
	unsigned int i;
	u64 v;

	if (!type || type->fix_addrs != rbtr_kev_fix_ptrs)
		return;
	for (i = 0; i < type->nr_fields; i++) {
		f = &type->fields[i];
		if (f->kind != RBTR_FIELD_K_PTRSTR || f->offset + sizeof(v) > len)
			continue;
		memcpy(&v, rec + f->offset, sizeof(v));
		v ^= RBTR_KEV_OLD_PTR;
		memcpy(rec + f->offset, &v, sizeof(v));
	}
}

/*
 * strncpy_from_kernel_nofault() is not exported: the string a byte at a
 * time, a fault anywhere ending it as "(0x...)" as ftrace prints it. The
 * raw address, as ftrace's (0x%px) shows it: the trace files are root's.
 * A previous boot's pointer (marked) is only shown.
 */
static void rbtr_kev_print_ptrstr(struct seq_buf *s, const void *p)
{
	char str[64];
	unsigned int i;
	char *ptr;
	u64 v;

	memcpy(&v, p, sizeof(v));
	if (rbtr_kev_ptr_marked(v)) {
		seq_buf_printf(s, "(0x%llx)", v ^ RBTR_KEV_OLD_PTR);
		return;
	}
	ptr = (char *)(unsigned long)v;
	for (i = 0; i < sizeof(str) - 1; i++) {
		if (copy_from_kernel_nofault(&str[i], ptr + i, 1)) {
			seq_buf_printf(s, "(0x%lx)", (unsigned long)ptr);
			return;
		}
		if (!str[i])
			break;
	}
	str[i] = '\0';
	seq_buf_printf(s, "(0x%lx:%s)", (unsigned long)ptr, str);
}

static void rbtr_kev_print_field(struct seq_buf *s, const struct rbtr_field *f,
				 const void *rec, unsigned int len)
{
	const void *p = rec + f->offset;

	switch (f->kind) {
	case RBTR_FIELD_K_STR:
		seq_buf_printf(s, "%.*s", (int)strnlen(p, f->size), (const char *)p);
		break;
	case RBTR_FIELD_K_DYNSTR:
	case RBTR_FIELD_K_RELSTR:
	case RBTR_FIELD_K_DYNARR:
	case RBTR_FIELD_K_RELARR:
		rbtr_kev_print_loc(s, f, rec, len);
		break;
	case RBTR_FIELD_K_PTRSTR:
		rbtr_kev_print_ptrstr(s, p);
		break;
	case RBTR_FIELD_K_ARRAY:
		rbtr_kev_print_array(s, f, p);
		break;
	default:
		rbtr_kev_print_int(s, p, f->size);
		break;
	}
}

/* One value, or <OVERFLOW> where the record is too short for the field. */
static void rbtr_kev_print_checked(struct seq_buf *s, const struct rbtr_field *f,
				   const void *rec, unsigned int len)
{
	if (f->offset + f->size > len)
		seq_buf_printf(s, "<OVERFLOW>");
	else
		rbtr_kev_print_field(s, f, rec, len);
}

/*
 * "name: field=value ...\n", as ftrace's "fields" option prints an event
 * (trace_output.c, print_fields()): the field's name without its array
 * size, integers in hex and decimal, strings as strings, a dynamic array
 * as hex bytes; a fixed array of integers element by element, where
 * ftrace gives up.
 */
static void rbtr_kev_print(struct seq_buf *s, const struct rbtr_event_type *type,
			   const void *rec, unsigned int len)
{
	const struct rbtr_kevent *kev = container_of(type, struct rbtr_kevent, type);

	/* As ftrace prints it, where the kernel's printer can be given it. */
	if (rbtr_kev_text(s, kev, rec, len))
		return;
	rbtr_event_print_fields(s, type, rec, len, rbtr_kev_print_checked);
}

/* options/fields: name=value, as ftrace's fields option prints them. */
static void rbtr_kev_print_fields(struct seq_buf *s, const struct rbtr_event_type *type,
				  const void *rec, unsigned int len)
{
	rbtr_event_print_fields(s, type, rec, len, rbtr_kev_print_checked);
}
