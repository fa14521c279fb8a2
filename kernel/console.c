/*
 * Console output to COM1 and the VGA text buffer. Output is polled: the
 * serial transmitter is waited for with a bound, so a missing or wedged
 * UART slows the console down but never hangs the kernel.
 */
#include <string.h>

#include "kernel/console.h"
#include "kernel/summary.h"
#include "kernel/sync.h"
#include "kernel/time.h"
#include "kernel/io.h"
#include "kernel/param.h"

#define COM1		0x3f8
#define UART_THR	0	/* transmit holding register */
#define UART_IER	1
#define UART_FCR	2
#define UART_LCR	3
#define UART_MCR	4
#define UART_LSR	5
#define UART_SCR	7
#define UART_DLL	0	/* with LCR.DLAB */
#define UART_DLM	1
#define LSR_THRE	0x20	/* transmit holding register empty */
#define LCR_DLAB	0x80
#define LCR_8N1		0x03

#define VGA_COLS	80
#define VGA_ROWS	25
#define VGA_ATTR	0x0700	/* light grey on black */

static const char *const console_choices[] = { "serial", "vga", "both", NULL };
KPARAM(console, KV_ENUM, console_choices, "where the console goes (default both)");

static bool have_serial;
static unsigned int console_mask = CONSOLE_SERIAL | CONSOLE_VGA;
static volatile uint16_t *const vga = (volatile uint16_t *)0xb8000;
static unsigned int vga_row, vga_col;

static void serial_init(void)
{
	/* A UART keeps what is written to its scratch register; no UART reads 0xff. */
	outb(COM1 + UART_SCR, 0x5a);
	if (inb(COM1 + UART_SCR) != 0x5a)
		return;
	outb(COM1 + UART_IER, 0x00);
	outb(COM1 + UART_LCR, LCR_DLAB);
	outb(COM1 + UART_DLL, 1);	/* 115200 = 115200 / 1 */
	outb(COM1 + UART_DLM, 0);
	outb(COM1 + UART_LCR, LCR_8N1);
	outb(COM1 + UART_FCR, 0xc7);	/* enable and clear FIFOs, 14-byte threshold */
	outb(COM1 + UART_MCR, 0x03);	/* DTR, RTS */
	have_serial = true;
}

static void serial_putc(char c)
{
	/* ~10 ms at 115200 baud is far more than one character needs. */
	for (int i = 0; i < 100000; i++) {
		if (inb(COM1 + UART_LSR) & LSR_THRE)
			break;
		cpu_relax();
	}
	outb(COM1 + UART_THR, (uint8_t)c);
}

static void vga_scroll(void)
{
	for (unsigned int i = 0; i < (VGA_ROWS - 1) * VGA_COLS; i++)
		vga[i] = vga[i + VGA_COLS];
	for (unsigned int i = 0; i < VGA_COLS; i++)
		vga[(VGA_ROWS - 1) * VGA_COLS + i] = VGA_ATTR | ' ';
	vga_row = VGA_ROWS - 1;
}

static void vga_update_cursor(void)
{
	unsigned int pos = vga_row * VGA_COLS + vga_col;

	outb(0x3d4, 0x0f);
	outb(0x3d5, pos & 0xff);
	outb(0x3d4, 0x0e);
	outb(0x3d5, (pos >> 8) & 0xff);
}

static void vga_putc(char c)
{
	if (c == '\n') {
		vga_col = 0;
		if (++vga_row == VGA_ROWS)
			vga_scroll();
		return;
	}
	if (c == '\r') {
		vga_col = 0;
		return;
	}
	if (c == '\t') {
		do
			vga_putc(' ');
		while (vga_col % 8);
		return;
	}
	vga[vga_row * VGA_COLS + vga_col] = VGA_ATTR | (uint8_t)c;
	if (++vga_col == VGA_COLS) {
		vga_col = 0;
		if (++vga_row == VGA_ROWS)
			vga_scroll();
	}
}

void console_init(void)
{
	serial_init();
	for (unsigned int i = 0; i < VGA_ROWS * VGA_COLS; i++)
		vga[i] = VGA_ATTR | ' ';
	vga_row = vga_col = 0;
}

void console_select(unsigned int mask)
{
	console_mask = mask;
}

void console_write(const char *buf, size_t len)
{
	/*
	 * Under the virtual clock, output takes no time: the UART's transmit
	 * register empties when the host's pipe takes the byte, so the polls
	 * below depend on the host and must not move virtual time.
	 */
	bool stop = ktime_is_virtual();
	unsigned long flags = local_irq_save();
	uint64_t begin = ktime_stall_begin(stop);

	summary_watch(buf, len);
	for (size_t i = 0; i < len; i++) {
		if ((console_mask & CONSOLE_SERIAL) && have_serial) {
			if (buf[i] == '\n')
				serial_putc('\r');
			serial_putc(buf[i]);
		}
		if (console_mask & CONSOLE_VGA)
			vga_putc(buf[i]);
	}
	if (console_mask & CONSOLE_VGA)
		vga_update_cursor();
	ktime_stall_end(begin, stop);
	local_irq_restore(flags);
}
