import {
  BadgeCheck,
  Bell,
  CreditCard,
  FilePen,
  Flag,
  Hammer,
  Handshake,
  MessageCircle,
  MessagesSquare,
  Pin,
  Star,
  Undo2,
  type LucideIcon,
} from 'lucide-react';
import { notificationIcon, type NotificationIconName } from '../../../shared/display';

// Each icon imported by name, so the bundle carries these and no others.
const ICONS: Record<NotificationIconName, LucideIcon> = {
  application: FilePen,
  conversation: MessagesSquare,
  message: MessageCircle,
  offer: Handshake,
  payment: CreditCard,
  paid: BadgeCheck,
  started: Hammer,
  completed: Flag,
  declined: Undo2,
  status: Pin,
  review: Star,
  default: Bell,
};

/** The notification type's icon as an inline SVG, decorative: the message beside it says what happened. */
export function NotificationIcon({ type }: { type: string }) {
  const name = notificationIcon(type);
  const Icon = ICONS[name];
  return (
    <Icon
      className="notification__icon"
      data-icon={name}
      aria-hidden="true"
      focusable="false"
      size={24}
      strokeWidth={2}
    />
  );
}
